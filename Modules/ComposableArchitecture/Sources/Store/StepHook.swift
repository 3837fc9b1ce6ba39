/// An observer of a root store's steps, set from outside the runtime (the session recording of
/// `ComposableRecording` sets one): the store tells it, after each action it reduces, who sent
/// the action and the state it left, and asks it, when it wants to be asked, whether an effect's
/// action may be reduced now (a replay reduces effects' actions in the order a record has them).
///
/// A store has at most one (``RootCore/setStepHook(_:dependencies:)``). While none is set the
/// send path pays one `nil` check and nothing else.
@usableFromInline
package final class _StoreStepHook<State, Action> {
  /// Whether the action about to be reduced was sent by an effect (else from outside: a user,
  /// a front end); set by the store before it reduces an effect's action.
  @usableFromInline @exclusivity(unchecked) var nextIsFromEffect = false
  /// The effect that sent it, when the store knows.
  @usableFromInline @exclusivity(unchecked) var nextEffect: EffectHandle?
  /// Whether the `.send` effects about to start come from outside the observed feature (its
  /// parent's reducer turned a key press into one of its actions): then they count as sent from
  /// outside too.
  @usableFromInline @exclusivity(unchecked) var sendsAreFromOutside = false
  /// Whether the `.run` effects about to start belong to a step of the observed feature (set
  /// after each reduce; cleared while a concatenation starts its next effect, which no step
  /// starts): those are told to ``effectStarted``.
  @usableFromInline @exclusivity(unchecked) var startsObservedEffects = false
  /// Told each `.run` effect a step of the observed feature starts, as it starts: in the order
  /// the store starts them, which does not depend on when their tasks run (a recording numbers
  /// them so).
  @usableFromInline let effectStarted: (EffectHandle) -> Void
  /// Told each step of the root: the action, the state after it, whether an effect sent it and
  /// which; returns whether the step was one of the observed feature's.
  @usableFromInline let didReduce:
    (_ action: Action, _ state: State, _ fromEffect: Bool, _ effect: EffectHandle?) -> Bool
  /// Told when the hook is removed or the store goes away, with the effects still running.
  @usableFromInline let stop: (_ effectsInFlight: Int) -> Void
  /// Asked, when set, before an action an effect sent is reduced (outside another send): `false`
  /// takes the action away from the store, which then neither reduces nor keeps it. The hook
  /// gives it back later with ``RootCore/receive(_:tasks:from:)``, or drops it.
  @usableFromInline package var admit:
    ((_ action: Action, _ tasks: EffectTaskList, _ effect: EffectHandle?) -> Bool)?

  @usableFromInline
  package init(
    didReduce: @escaping (Action, State, Bool, EffectHandle?) -> Bool,
    effectStarted: @escaping (EffectHandle) -> Void,
    stop: @escaping (Int) -> Void
  ) {
    self.didReduce = didReduce
    self.effectStarted = effectStarted
    self.stop = stop
  }
}
