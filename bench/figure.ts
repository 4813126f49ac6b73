/** A figure of the bench (bench/main.ts) and the helpers its steps share to compute and print one. */
export interface Figure {
  name: string;
  value: number;
  unit: string;
  goal: string;
  met: boolean | undefined;
  detail: string;
}

export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

export const fmt = (n: number, digits = 0) =>
  n.toLocaleString("en", { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** The CPU time of every thread of this process since `start` (process.cpuUsage()), in ms. */
export const cpuMsSince = (start: NodeJS.CpuUsage) => {
  const { user, system } = process.cpuUsage(start);
  return (user + system) / 1000;
};
