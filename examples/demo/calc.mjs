// A tiny module with a bug for the oceancode demo: add() subtracts.
export function add(a, b) {
  return a - b;
}

export function multiply(a, b) {
  return a * b;
}
