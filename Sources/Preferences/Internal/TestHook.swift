/// Code a test runs at a named point of the library (inside a flush, between a migration's
/// two writes, …), bound with a `@TaskLocal` around the call it exercises.
///
/// A task-local value of a function type crashes optimized builds of Swift 6.3 as it is bound
/// (`swift_task_localValuePush` is passed a bad type; `swift test -c release` in `.ci/run`
/// found it), so hooks are kept in this struct, which binds safely, instead of as closures.
struct TestHook: Sendable {
  let body: @Sendable () -> Void

  init(_ body: @escaping @Sendable () -> Void) { self.body = body }

  func callAsFunction() { body() }
}
