import { readFile, readdir } from 'node:fs/promises';

/** USER_HZ: 100 on every Linux architecture Node runs on. */
const clockTicksPerSecond = 100;

/** CPU time a process has used (user + system, all threads), in ms, from /proc/<pid>/stat. */
export async function processCpuMs(pid: number): Promise<number> {
  return cpuMsOf(`/proc/${pid}/stat`);
}

/** Fields 14 and 15 (utime, stime) of a /proc stat file, in clock ticks after the `(comm)` field. */
async function cpuMsOf(statFile: string): Promise<number> {
  const stat = await readFile(statFile, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / clockTicksPerSecond;
}

/** The pids of a process's children, from every thread's /proc/<pid>/task/<tid>/children. */
async function childrenOf(pid: number): Promise<number[]> {
  const tasks = await readdir(`/proc/${pid}/task`).catch(() => []);
  const lists = await Promise.all(
    tasks.map((task) => readFile(`/proc/${pid}/task/${task}/children`, 'utf8').catch(() => '')),
  );
  return lists.flatMap((list) =>
    list
      .split(' ')
      .filter((entry) => entry !== '')
      .map(Number),
  );
}

/** processCpuMs of a process and all its descendants: a WORKERS=N service's primary and workers. */
export async function processTreeCpuMs(pid: number): Promise<number> {
  const own = await processCpuMs(pid).catch(() => 0);
  const children = await childrenOf(pid);
  const theirs = await Promise.all(children.map((child) => processTreeCpuMs(child)));
  return theirs.reduce((sum, ms) => sum + ms, own);
}

/**
 * CPU time one thread of a process has used (user + system), in ms, from
 * /proc/<pid>/task/<tid>/stat: the bench's main thread alone, without the fixture DNS's worker
 * thread that shares the process. A process's main thread has the process's id.
 */
export async function threadCpuMs(pid: number, tid = pid): Promise<number> {
  return cpuMsOf(`/proc/${pid}/task/${tid}/stat`);
}

/**
 * CPU time of a process's main thread and of all its other threads together (V8's platform
 * workers: the garbage collector's helpers, the compilers), in ms.
 */
export async function mainAndOtherThreadsCpuMs(
  pid: number,
): Promise<{ main: number; others: number }> {
  let main = 0;
  let others = 0;
  for (const task of await readdir(`/proc/${pid}/task`).catch(() => [])) {
    const ms = await cpuMsOf(`/proc/${pid}/task/${task}/stat`).catch(() => 0);
    if (task === String(pid)) main += ms;
    else others += ms;
  }
  return { main, others };
}

/**
 * The run time of each thread of a process, in ms to the nanosecond, by thread id: the first field
 * of each /proc/<pid>/task/<tid>/schedstat (user and system together), where /proc's stat counts
 * clock ticks of 10 ms. A thread that ends between the listing and its read is left out.
 */
export async function threadRunMsById(pid: number): Promise<Map<string, number>> {
  const tasks = await readdir(`/proc/${pid}/task`);
  const lines = await Promise.all(
    tasks.map((task) =>
      readFile(`/proc/${pid}/task/${task}/schedstat`, 'utf8').catch(() => undefined),
    ),
  );
  const byId = new Map<string, number>();
  tasks.forEach((task, index) => {
    const line = lines[index];
    if (line !== undefined) byId.set(task, Number(line.split(' ')[0]) / 1e6);
  });
  return byId;
}
