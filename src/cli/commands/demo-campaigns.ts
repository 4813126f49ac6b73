/** A bundled example campaign: its id and set-up file in examples/. */
export interface DemoCampaign {
  campaign: string;
  setupFile: string;
  /** The label of the fixed sequence its seeds and salts are drawn from: one whose dice let the demo show its rules. */
  dice: string;
}

/** Ashfall: the basic rules only. */
export const BASIC_DEMO: DemoCampaign = { campaign: "ashfall", setupFile: "ashfall.setup.json", dice: "ashfall-demo" };
/** Emberfall: every advanced rule (A1-A8) on. */
export const ADVANCED_DEMO: DemoCampaign = {
  campaign: "emberfall",
  setupFile: "emberfall.setup.json",
  dice: "emberfall-demo-1",
};
