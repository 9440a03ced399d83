/** The todos extension's HTTP route (mounted by the serve host through service "routes"): a session's list. */
import { ERROR_SCHEMA, type JsonSchema, type RouteDefinition } from "../serve/api.js";
import { TODO_STATUSES, type TodoList, type TodosService } from "./api.js";

const sessionParams: JsonSchema = { type: "object", properties: { id: { type: "string", minLength: 1 } }, required: ["id"] };
const count = { type: "integer", minimum: 0 };

export interface TodosAnswer extends TodoList {
  /** pending or in progress (the floor row not counted) */
  open: number;
  completed: number;
}

const itemSchema: JsonSchema = {
  type: "object",
  properties: {
    content: { type: "string" },
    status: { type: "string", enum: [...TODO_STATUSES] },
    activeForm: { type: "string" },
    by: { type: "string", enum: ["model", "user", "floor"] },
  },
  required: ["content", "status", "by"],
  additionalProperties: false,
};

const todosAnswer: JsonSchema = {
  type: "object",
  properties: {
    sessionId: { type: "string" },
    items: { type: "array", items: itemSchema },
    floor: { type: "boolean", description: "the list is the always-plan floor (the prompt): the model has not planned yet" },
    planned: { type: "boolean", description: "the model wrote a list in this session" },
    version: count,
    open: { ...count, description: "rows pending or in progress" },
    completed: count,
  },
  required: ["sessionId", "items", "floor", "planned", "version", "open", "completed"],
  additionalProperties: false,
};

export function todosRoutes(todos: TodosService): RouteDefinition[] {
  return [
    {
      method: "GET",
      url: "/session/:id/todos",
      operationId: "sessionTodos",
      summary: "The session's todo list (the model's plan, the rows a person added, or the always-plan floor) with its open and completed counts",
      schema: { params: sessionParams, response: { 200: todosAnswer, 404: ERROR_SCHEMA, 409: ERROR_SCHEMA } },
      handler: async (req): Promise<TodosAnswer> => {
        const s = await req.session(req.params.id!);
        return { ...todos.get(s), ...todos.counts(s) };
      },
    },
  ];
}
