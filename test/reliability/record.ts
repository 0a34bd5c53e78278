// One row of the reliability summary, written by a scenario to the run's directory.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { inject } from 'vitest';

export interface ScenarioRow {
  scenario: string;
  order: number;
  requests: number;
  fiveXx: number;
  violations: string[];
  /** Measured figures of the scenario (name -> value with its unit), printed in the table. */
  figures?: Record<string, string>;
}

let order = 0;

/** Counts the requests, 5xx answers and violations of one scenario. */
export class Scenario {
  requests = 0;
  fiveXx = 0;
  violations: string[] = [];
  figures: Record<string, string> = {};
  private readonly order: number;
  constructor(
    readonly name: string,
    group = 0,
  ) {
    this.order = group * 100 + order++;
  }
  /** Counts one answer (a status, or an error when there was none). */
  count(status: number | undefined) {
    this.requests++;
    if (status !== undefined && status >= 500) this.fiveXx++;
  }
  violation(message: string) {
    this.violations.push(message);
  }
  /** Records a measured figure for the suite's table. */
  figure(name: string, value: string) {
    this.figures[name] = value;
  }
  check(ok: boolean, message: string) {
    if (!ok) this.violation(message);
  }
  save() {
    const row: ScenarioRow = {
      scenario: this.name,
      order: this.order,
      requests: this.requests,
      fiveXx: this.fiveXx,
      violations: this.violations,
      figures: this.figures,
    };
    const file = path.join(inject('reliabilityDir'), `${this.name.replace(/[^a-z0-9]+/gi, '-')}.json`);
    writeFileSync(file, JSON.stringify(row));
  }
}
