/**
 * The kit `oceancode/kit/todos`: the implementation todos shares with other extensions and third parties
 * (its types, hook tables and constants are the contract `oceancode/api/todos`, extensions/todos/api.ts).
 */
export { readStoredTodos, renderTodoLines } from "./kit/shared.js";
