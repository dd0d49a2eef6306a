import { afterEach, describe, expect, it } from "vitest";
import { formatCount, formatDateTimeUTC, formatLongDate, formatRupees, formatShortDate } from "./numbers";

describe("formatCount", () => {
  it.each([
    [0, "0"],
    [999, "999"],
    [1000, "1,000"],
    [99999, "99,999"],
    [100000, "1,00,000"],
    [10000000, "1,00,00,000"],
    [123456789, "12,34,56,789"],
    [-123456789, "-12,34,56,789"],
    [-1000, "-1,000"],
  ])("%d is %s", (n, want) => {
    expect(formatCount(n)).toBe(want);
  });
});

describe("formatRupees", () => {
  it.each([
    [0, "₹0"],
    [999, "₹999"],
    [100000, "₹1,00,000"],
    [1234567.5, "₹12,34,567.50"],
    [123456789.01, "₹12,34,56,789.01"],
    [-500, "-₹500"],
  ])("%d is %s", (n, want) => {
    expect(formatRupees(n)).toBe(want);
  });
});

describe("dates", () => {
  it("writes a day out as the pages do", () => {
    expect(formatLongDate("2026-12-02")).toBe("2 December 2026");
    expect(formatLongDate("2026-12-02T23:30:00Z")).toBe("2 December 2026");
    expect(formatShortDate("2026-12-02")).toBe("2 Dec 2026");
    expect(formatShortDate("2026-09-02")).toBe("2 Sept 2026");
  });
});

describe("date and time", () => {
  it("writes an instant in UTC", () => {
    expect(formatDateTimeUTC("2026-12-02T15:04:05Z")).toBe("2 Dec 2026, 15:04 UTC");
    expect(formatDateTimeUTC("2026-12-02T15:04:05Z", true)).toBe("2 Dec 2026, 15:04:05 UTC");
  });
});

describe("dates on a Hindi page", () => {
  afterEach(() => {
    document.documentElement.lang = "";
  });

  it("writes the months in Hindi, the digits as they are", () => {
    document.documentElement.lang = "hi";
    expect(formatLongDate("2026-09-02")).toBe("2 सितंबर 2026");
    expect(formatShortDate("2026-12-02")).toBe("2 दिस॰ 2026");
    expect(formatDateTimeUTC("2026-12-02T15:04:05Z")).toBe("2 दिस॰ 2026, 15:04 UTC");
    expect(formatDateTimeUTC("2026-12-02T15:04:05Z", true)).toBe("2 दिस॰ 2026, 15:04:05 UTC");
  });

  it("keeps English on an English page after a Hindi one", () => {
    document.documentElement.lang = "hi";
    formatLongDate("2026-09-02");
    document.documentElement.lang = "en-IN";
    expect(formatLongDate("2026-09-02")).toBe("2 September 2026");
    expect(formatShortDate("2026-09-02")).toBe("2 Sept 2026");
  });
});
