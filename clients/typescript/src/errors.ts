/**
 * `ApiError`: an answer other than a success, with the problem it carried
 * (`application/problem+json`) and the rule's ID when the rules refused an action
 * (`RuleRefused`, a 422; `VersionMoved`, a 412); and `unwrap`, which turns an
 * openapi-fetch result into its data or throws one.
 */
import type { components } from "./schema.js";

export type Problem = components["schemas"]["Problem"];

/** The seconds a `Retry-After` header asks for (seconds or an HTTP date), or undefined. */
export function retryAfterSeconds(value: string | null, now: number = Date.now()): number | undefined {
  if (!value) return undefined;
  const seconds = Number(value);
  if (value.trim() !== "" && Number.isFinite(seconds)) return Math.max(0, seconds);
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, (at - now) / 1000);
}

function isProblem(body: unknown): body is Problem {
  if (typeof body !== "object" || body === null) return false;
  const b = body as Record<string, unknown>;
  return typeof b.type === "string" && typeof b.title === "string" &&
    typeof b.status === "number" && typeof b.detail === "string";
}

export class ApiError extends Error {
  /** the answer's status */
  readonly status: number;
  /** the problem it carried, if it was one */
  readonly problem?: Problem;
  /** the rule's ID (`C-3`, `Q-3`, ...) when the rules refused an action */
  readonly rule?: string;
  /** seconds to wait, when it asked for that (`Retry-After`) */
  readonly retryAfter?: number;

  constructor(status: number, body: unknown, retryAfter?: number) {
    const problem = isProblem(body) ? body : undefined;
    const what = problem ? `${problem.title}: ${problem.detail}` : "no problem+json body";
    super(`${status} ${what}${problem?.rule ? ` (rule ${problem.rule})` : ""}`);
    this.name = "ApiError";
    this.status = status;
    this.problem = problem;
    this.rule = problem?.rule;
    this.retryAfter = retryAfter;
  }
}

/** The rules refused the action (422): `rule` is the ID of the rule that did. In a
 * real-time game it is most often a race the other seat won: decide on the next view. */
export class RuleRefused extends ApiError {
  declare readonly rule: string;

  constructor(status: number, body: unknown, retryAfter?: number) {
    super(status, body, retryAfter);
    this.name = "RuleRefused";
  }
}

/** The game is no longer at the version the action was decided on (412: its
 * `If-Match`); the problem's `version` is the game's now. */
export class VersionMoved extends ApiError {
  constructor(status: number, body: unknown, retryAfter?: number) {
    super(status, body, retryAfter);
    this.name = "VersionMoved";
  }
}

/** The `ApiError` of an answer: a `RuleRefused` for the rules' 422, a `VersionMoved` for a
 * 412, else an `ApiError`. */
export function apiError(status: number, body: unknown, retryAfter?: number): ApiError {
  const rule = isProblem(body) ? body.rule : undefined;
  if (status === 422 && rule) return new RuleRefused(status, body, retryAfter);
  if (status === 412) return new VersionMoved(status, body, retryAfter);
  return new ApiError(status, body, retryAfter);
}

/** The data of a call of `createSpitlogClient`'s client, or its `ApiError`:
 * `const view = await unwrap(api.GET("/v1/games/{game_id}", { params }))`. */
export async function unwrap<T>(
  call: Promise<{ data?: T; error?: unknown; response: Response }>,
): Promise<T> {
  const { data, error, response } = await call;
  if (!response.ok || data === undefined) {
    throw apiError(response.status, error,
      retryAfterSeconds(response.headers.get("Retry-After")));
  }
  return data;
}
