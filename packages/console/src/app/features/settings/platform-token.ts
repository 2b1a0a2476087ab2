/**
 * The signed-in user's platform credential for the management API. The console's sign-in sets
 * where it comes from; until then there is none and the management API answers 401.
 */
let source: () => string | undefined | Promise<string | undefined> = () => undefined;

export function setPlatformTokenSource(next: typeof source): void {
  source = next;
}

export function platformToken(): string | undefined | Promise<string | undefined> {
  return source();
}
