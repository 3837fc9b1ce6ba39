#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Whether two values have the same bits: for values made of references (an ordered set is a
/// pair of references to its buffers, dependency values a pair of storage references), the very
/// same storage, hence equal without comparing a single element. One `memcmp` — far cheaper than
/// a byte-wise `elementsEqual`.
///
/// `forEach` and the stack reducer compare their ids with it before and after the parent, which
/// keeps them flat in the number of elements; stores and effects compare dependency values with
/// it.
@inlinable
func areIdentical<Value>(_ lhs: Value, _ rhs: Value) -> Bool {
  withUnsafeBytes(of: lhs) { lhsBytes in
    withUnsafeBytes(of: rhs) { rhsBytes in
      memcmp(lhsBytes.baseAddress!, rhsBytes.baseAddress!, lhsBytes.count) == 0
    }
  }
}
