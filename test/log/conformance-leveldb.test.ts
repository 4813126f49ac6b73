/** The store conformance suite (conformance.ts) on LevelDB, edited raw through the folder's sublevels. */
import { Level } from "level";
import { conformance, freshFolder } from "./conformance.js";
import { rawKey } from "./helpers.js";

conformance({
  name: "LevelDB",
  fresh: freshFolder,
  golden: "sample",
  raw: async (dir) => {
    const db = new Level<string, string>(dir, { valueEncoding: "utf8" });
    await db.open({ createIfMissing: false });
    const sub = (name: string) => db.sublevel<string, string>(name, { valueEncoding: "utf8" });
    const [events, heads, branches] = [sub("events"), sub("heads"), sub("branches")];
    return {
      get: (stream, seq) => events.get(rawKey(stream, seq)),
      put: (stream, seq, value) => events.put(rawKey(stream, seq), value),
      del: (stream, seq) => events.del(rawKey(stream, seq)),
      setHead: (stream, head) => (head ? heads.put(stream, JSON.stringify(head)) : heads.del(stream)),
      setParent: async (stream, parent) =>
        branches.put(stream, JSON.stringify({ ...JSON.parse((await branches.get(stream))!), parent })),
      close: () => db.close(),
    };
  },
});
