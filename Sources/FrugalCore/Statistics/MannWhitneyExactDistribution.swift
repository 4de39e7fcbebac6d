import Foundation

/// Exact null distribution of the Mann–Whitney U statistic for two samples
/// without ties.
///
/// Under the null hypothesis every one of the C(m+n, m) orderings of the
/// pooled sample is equally likely, so P(U = u) is the number of orderings
/// with U = u divided by C(m+n, m). The counts come from the classic
/// recurrence on the largest pooled value:
///
///     f(m, n, u) = f(m − 1, n, u − n) + f(m, n − 1, u)
///
/// (if the largest value is from the first sample it beats all n values of
/// the second; otherwise it beats none), with f(0, n, 0) = f(m, 0, 0) = 1.
///
/// Counts are kept as `Double`: they are integers ≤ C(m+n, m), and for
/// m, n ≤ ``MannWhitneyUTest/maximumExactSampleSize`` (20) that is at most
/// C(40, 20) ≈ 1.4 × 10¹¹ < 2⁵³, so every count is represented exactly.
enum MannWhitneyExactDistribution {
    /// `counts[u]` = number of orderings with U = u, for u in 0...m·n.
    static func counts(firstCount m: Int, secondCount n: Int) -> [Double] {
        precondition(m >= 0 && n >= 0)
        // table[j] holds f(i, j, ·) for the current i; rows are built from
        // i = 0 upwards so only one row of arrays is alive at a time.
        var table = [[Double]](repeating: [1], count: n + 1) // i = 0
        if m == 0 { return table[n] }
        for i in 1...m {
            var row = [[Double]](repeating: [], count: n + 1)
            row[0] = [1] // f(i, 0, ·): only U = 0 is possible
            if n > 0 {
                for j in 1...n {
                    var current = [Double](repeating: 0, count: i * j + 1)
                    // Largest value from the second sample: f(i, j − 1, u).
                    for (u, c) in row[j - 1].enumerated() { current[u] += c }
                    // Largest value from the first sample: f(i − 1, j, u − j).
                    for (u, c) in table[j].enumerated() { current[u + j] += c }
                    row[j] = current
                }
            }
            table = row
        }
        return table[n]
    }

    /// Two-sided p-value 2 · P(U ≤ min(u, m·n − u)), capped at 1.
    ///
    /// The distribution is symmetric about m·n/2, so doubling the smaller
    /// tail equals SciPy's `2 · P(U ≥ max(U₁, U₂))`.
    static func twoSidedPValue(u: Double, firstCount m: Int, secondCount n: Int) -> Double {
        let counts = counts(firstCount: m, secondCount: n)
        let total = counts.reduce(0, +)
        // Without ties U is an integer; rounding only guards against input
        // that went through floating-point arithmetic.
        let smallerTail = Int(Swift.min(u, Double(m * n) - u).rounded())
        var tail = 0.0
        for k in 0...smallerTail { tail += counts[k] }
        return Swift.min(1, 2 * tail / total)
    }
}
