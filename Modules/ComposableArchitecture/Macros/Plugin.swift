import SwiftCompilerPlugin
import SwiftSyntaxMacros

@main
struct ComposableArchitecturePlugin: CompilerPlugin {
  let providingMacros: [any Macro.Type] = [
    ReducerMacro.self,
    CasePathResolvingMacro.self,
    ObservableStateMacro.self,
    ObservationStateTrackedMacro.self,
    ObservationStateIgnoredMacro.self,
    PresentsMacro.self,
    ReducerCaseEphemeralMacro.self,
    ReducerCaseIgnoredMacro.self,
    RecordDecodableMacro.self,
  ]
}
