/**
 * Freezes a plain state (or part of one) all the way down, as the reducers' immer transactions leave every state. In
 * one tight walk: immer would otherwise walk and freeze the whole unfrozen tree in the first fold after it.
 */
export function deepFreeze<T>(value: T): T {
  if (typeof value !== "object" || value === null || Object.isFrozen(value)) return value;
  Object.freeze(value);
  if (Array.isArray(value)) for (let i = 0; i < value.length; i++) deepFreeze(value[i]);
  else for (const key in value) deepFreeze((value as Record<string, unknown>)[key]);
  return value;
}
