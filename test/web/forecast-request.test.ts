import { describe, expect, it } from "vitest";
import { FieldError } from "../../src/web/fields.js";
import { forecastRequest } from "../../src/web/forecast-request.js";

describe("the web page's forecast form asks the server's forecast route", () => {
  it("asks for the line played: the campaign's own with no branch named, else the branch", () => {
    expect(forecastRequest({ runs: "200" }, "main", "")).toEqual({ runs: 200 });
    expect(forecastRequest({ runs: "50", turns: " 3 ", seed: " s1 " }, "charge", "")).toEqual({
      runs: 50,
      turns: 3,
      seed: "s1",
      branch: "charge",
    });
  });

  it("compares the main line with the branch chosen, whatever line is played", () => {
    expect(forecastRequest({ runs: "40", turns: "" }, "charge", "what-if")).toEqual({
      runs: 40,
      compare: ["main", "what-if"],
    });
  });

  it("names the field whose text is no whole number", () => {
    expect(() => forecastRequest({ runs: "many" }, "main", "")).toThrow(FieldError);
    try {
      forecastRequest({ runs: "10", turns: "2.5" }, "main", "");
    } catch (error) {
      expect((error as FieldError).field).toBe("turns");
    }
    expect.assertions(2);
  });
});
