/** The middle value of a non-empty list (the upper one of the two middles for an even count), as every benchmark reports its runs. */
export const median = (values: readonly number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
