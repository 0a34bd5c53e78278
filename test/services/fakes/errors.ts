// The ApiError a service call rejects with (fails the test when it resolves or throws another error).
import { expect } from 'vitest';
import { ApiError } from '../../../src/errors.ts';

export async function apiError(call: Promise<unknown>): Promise<ApiError> {
  const err = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err, 'the call should have been refused').toBeInstanceOf(ApiError);
  return err as ApiError;
}

/** The error a call rejects with, of any class. */
export async function rejection(call: Promise<unknown>): Promise<Error> {
  const err = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err, 'the call should have been refused').toBeInstanceOf(Error);
  return err as Error;
}
