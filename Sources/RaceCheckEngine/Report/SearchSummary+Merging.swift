extension SearchSummary {
  /// What two parts of one run explored together, as `racecheck merge` adds up a sharded run.
  package func merging(_ other: SearchSummary) -> SearchSummary {
    var merged = self
    merged.scenarios += other.scenarios
    merged.plannedScenarios += other.plannedScenarios
    merged.invocations += other.invocations
    merged.overlappingInvocations += other.overlappingInvocations
    merged.distinctOutcomes += other.distinctOutcomes
    merged.chanceOfNewResults = chanceOfNewResults.merging(other.chanceOfNewResults)
    merged.cappedScenarios += other.cappedScenarios
    merged.contractTraps += other.contractTraps
    merged.scenariosStoppedByContractTraps += other.scenariosStoppedByContractTraps
    merged.exhaustedScenarios += other.exhaustedScenarios
    merged.scenariosCutByScheduleBudget += other.scenariosCutByScheduleBudget
    merged.untracedCode = (untracedCode + other.untracedCode).uniqued()
    return merged
  }
}
