extension BinaryInteger {
    /// Division rounding towards negative infinity, with a remainder that is never negative.
    package func floorDivided(by divisor: Self) -> (quotient: Self, remainder: Self) {
        var quotient = self / divisor
        var remainder = self % divisor
        if remainder < 0 {
            quotient -= 1
            remainder += divisor
        }
        return (quotient, remainder)
    }
}
