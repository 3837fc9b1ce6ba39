// TestStore spellings that TCA 1.x keeps for tests written before case key paths and `Duration`.

extension TestStore {
  /// Asserts that an effect sent an action of a case next, through a type-erased case path.
  @available(
    *, deprecated,
    message: "Use the version of this method with case key paths, instead: 'receive(\\.response)'."
  )
  @_disfavoredOverload
  public func receive<Value>(
    _ actionCase: AnyCasePath<Action, Value>,
    timeout: Duration? = nil,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await receiveCase(
      { actionCase.extract(from: $0) != nil }, timeout: timeout,
      update: updateStateToExpectedResult,
      location: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// ``receive(_:timeout:assert:fileID:file:line:column:)-(Action,_,_,_,_,_,_)`` with a timeout
  /// in nanoseconds.
  @available(*, deprecated, message: "Use the overload that takes a 'Duration' timeout, instead.")
  @_disfavoredOverload
  public func receive(
    _ expectedAction: Action,
    timeout nanoseconds: UInt64,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async where Action: Equatable {
    await receive(
      expectedAction, timeout: .nanoseconds(Int64(clamping: nanoseconds)),
      assert: updateStateToExpectedResult, fileID: fileID, file: filePath, line: line,
      column: column)
  }

  /// ``finish(timeout:fileID:file:line:column:)`` with a timeout in nanoseconds.
  @available(*, deprecated, message: "Use the overload that takes a 'Duration' timeout, instead.")
  @_disfavoredOverload
  public func finish(
    timeout nanoseconds: UInt64,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await finish(
      timeout: .nanoseconds(Int64(clamping: nanoseconds)), fileID: fileID, file: filePath,
      line: line, column: column)
  }
}

extension TestStoreTask {
  /// ``finish(timeout:fileID:file:line:column:)`` with a timeout in nanoseconds.
  @available(*, deprecated, message: "Use the overload that takes a 'Duration' timeout, instead.")
  @_disfavoredOverload
  public func finish(
    timeout nanoseconds: UInt64,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await finish(
      timeout: .nanoseconds(Int64(clamping: nanoseconds)), fileID: fileID, file: filePath,
      line: line, column: column)
  }
}
