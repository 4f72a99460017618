/** Calls `call` over and over, one at a time, until `stop` settles; returns every call's outcome. */
export async function keepCalling(
  call: () => Promise<unknown>,
  stop: Promise<unknown>,
): Promise<PromiseSettledResult<unknown>[]> {
  let done = false;
  const finish = () => {
    done = true;
  };
  stop.then(finish, finish);
  const outcomes: PromiseSettledResult<unknown>[] = [];
  do {
    outcomes.push(...(await Promise.allSettled([call()])));
  } while (!done);
  return outcomes;
}
