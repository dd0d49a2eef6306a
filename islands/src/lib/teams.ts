// What the team pages share (issue 44): /organisation, the decision
// panel of a circular's page, /work and the team board. The calls' keys,
// the signed-in user's organisations and an organisation's members, how
// a member and a date are named, and the toast of a refusal. What a role
// may do is the API's to say (an organisation's canManageMembers,
// canDecide, canReviewEvidence: Go's teams rules); nothing here decides it.
import { useQuery } from "@tanstack/react-query";
import { api, dataOf, userMessage, type Schemas } from "./api";
import { toast } from "./toast";
import { formatLongDate } from "./numbers";
import strings from "../../../internal/i18n/strings/team.json";
import { translator } from "./i18n";

const t = translator(strings);

export type Organisation = Schemas["Organisation"];
export type Member = Schemas["Member"];
export type Decision = Schemas["Decision"];

// Choice is a value of Go's with its name (generator: teamWork).
export type Choice = { value: string; label: string };

// labelOf is a value's name among choices, the value itself when Go
// names none.
export const labelOf = (choices: Choice[], v: string | null | undefined) => choices.find((c) => c.value === v)?.label ?? v ?? "";

export const orgsKey = ["/organisations"] as const;
export const membersKey = (id: string) => ["/organisations/{id}/members", id] as const;

// longDate is a day or a time as the pages write dates: 31 March 2027.
export const longDate = formatLongDate;

// failed toasts a refusal in the API's words, under title.
export const failed = (title: string) => (err: unknown) => toast({ title, description: userMessage(err, t("team.somethingWrong")), variant: "destructive" });

// memberName is a member's first and last name, else the username.
export const memberName = (m: Member) => `${m.firstName} ${m.lastName}`.trim() || m.username;

// useOrganisations are the signed-in user's organisations, with the
// user's role and what it may do in each.
export function useOrganisations(enabled: boolean) {
  return useQuery({ queryKey: orgsKey, queryFn: ({ signal }) => dataOf(api.GET("/organisations", { signal })), enabled });
}

// useMembers are an organisation's members; nameOf names a user id
// among them ("a former member" for one no longer there).
export function useMembers(orgID: string) {
  const q = useQuery({
    queryKey: membersKey(orgID),
    queryFn: ({ signal }) => dataOf(api.GET("/organisations/{id}/members", { params: { path: { id: orgID } }, signal })),
    enabled: orgID !== "",
  });
  const nameOf = (id: string | null | undefined) => {
    if (!id) return "";
    const m = q.data?.find((m) => m.userId === id);
    return m ? memberName(m) : t("team.formerMember");
  };
  return { ...q, nameOf };
}

// dueText is a decision's due date as the page shows it: the date it
// resolved to, with the rule it was given as when relative
// ("effective+30d").
export function dueText(d: Pick<Decision, "due" | "dueDate">): string {
  if (!d.dueDate) return t("team.noDueDate");
  const date = longDate(d.dueDate);
  return d.due && d.due !== d.dueDate ? `${date} (${d.due})` : date;
}
