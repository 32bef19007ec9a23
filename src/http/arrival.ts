/**
 * When a request arrived, read once (`performance.now()`, in milliseconds) for every part that
 * needs the time of a request: the request log's duration and the rate limiter's windows. A clock
 * read costs as much as a header lookup on this kind of machine.
 */
const ARRIVED = Symbol("request.arrived");

interface Arrived {
  [ARRIVED]?: number;
}

/** Notes the request's arrival now (the first hook of every request does). */
export function noteArrival(request: Request): void {
  (request as Arrived)[ARRIVED] = performance.now();
}

/** When the request arrived, or undefined when that was never noted. */
export function arrivalOf(request: Request): number | undefined {
  return (request as Arrived)[ARRIVED];
}
