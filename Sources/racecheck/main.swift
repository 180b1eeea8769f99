print("racecheck")
