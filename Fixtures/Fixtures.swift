import RaceCheck
