// /organisation: the signed-in user's organisations (issue 44). A user
// creates one (and is its admin), picks one (?id= in the URL) and sees its
// members with their roles. The API decides who may do what: an
// organisation's canManageMembers (Go's teams.CanManageMembers of the
// user's role) shows an admin's controls (change a role, set an auditor's
// end of access, remove a member, invite by e-mail, single sign-on:
// lib/sso-settings.tsx), and every refusal
// shows the API's message (the last admin's 409, a 403, a 404). Signed
// out, it sends the user to /login and back.
import { useMutation, useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useForm } from "react-hook-form";
import type * as z from "zod/mini";
import { api, ApiError, dataOf, userMessage } from "../lib/api";
import { useCurrentUser } from "../lib/auth";
import type { Option } from "../lib/controls";
import { Checkboxes, Field, FieldError, inputClass, inviteSchema, organisationSchema, secondaryButton, Section, zodResolver } from "../lib/forms";
import strings from "../../../internal/i18n/strings/organisation.json";
import { pagePath, translator } from "../lib/i18n";
import { withProviders } from "../lib/providers";
import { queryClient } from "../lib/query";
import { APIKeys } from "../lib/api-keys";
import { SSOSettings } from "../lib/sso-settings";
import { WebhookSettings } from "../lib/webhook-settings";
import { useQueryState } from "../lib/query-state";
import { failed, longDate, memberName, membersKey, orgsKey, useOrganisations, type Member, type Organisation } from "../lib/teams";
import { toast } from "../lib/toast";

type Role = Member["role"];
type Props = { entityTypes: Option[]; roles: Role[] };

const auditor: Role = "auditor";

const t = translator(strings);

// roleLabel is a role's name: the catalogue's, else the value capitalised.
const roleLabel = (r: string) => (`organisation.role.${r}` in strings ? t(`organisation.role.${r}`) : r.charAt(0).toUpperCase() + r.slice(1));

// endOf is the API's time of an end of access chosen as a day: the start
// of that day, UTC.
const endOf = (day: string) => (day ? `${day}T00:00:00Z` : undefined);

type OrgValues = z.infer<typeof organisationSchema>;

function CreateForm({ entityTypes, onCreated }: { entityTypes: Option[]; onCreated: (o: Organisation) => void }) {
  const form = useForm<OrgValues>({ resolver: zodResolver(organisationSchema), defaultValues: { name: "", entityTypes: [] } });
  const create = useMutation({
    mutationFn: (v: OrgValues) => dataOf(api.POST("/organisations", { body: { name: v.name, entityTypes: v.entityTypes } })),
    onSuccess: (o) => {
      void queryClient.invalidateQueries({ queryKey: orgsKey });
      form.reset();
      toast({ title: t("organisation.created"), description: t("organisation.youAreAdmin", { Name: o.name }) });
      onCreated(o);
    },
    onError: (err) => {
      if (err instanceof ApiError && err.fields.name) form.setError("name", { message: err.fields.name });
      failed(t("organisation.notCreated"))(err);
    },
  });
  return (
    <Section title={t("organisation.create")} id="organisation-create">
      <form noValidate className="max-w-md space-y-4" onSubmit={form.handleSubmit((v) => create.mutate({ ...v, entityTypes: v.entityTypes || [] }))} data-organisation-create>
        <Field id="organisation-name" label={t("organisation.name")} autoComplete="organization" error={form.formState.errors.name?.message} reg={form.register("name")} />
        <Checkboxes legend={t("organisation.kinds")} name="organisation-entity" values={entityTypes} reg={form.register("entityTypes")} />
        <button type="submit" className={secondaryButton} disabled={create.isPending}>
          {create.isPending ? t("organisation.creating") : t("organisation.createButton")}
        </button>
      </form>
    </Section>
  );
}

// MemberRow is one member; an admin (canManage) changes its role (with an
// auditor's end of access) or removes it.
function MemberRow({ org, member, roles, self }: { org: Organisation; member: Member; roles: Role[]; self: boolean }) {
  const [role, setRole] = useState<Role>(member.role);
  const [ends, setEnds] = useState(member.expiresAt?.slice(0, 10) ?? "");
  useEffect(() => {
    setRole(member.role);
    setEnds(member.expiresAt?.slice(0, 10) ?? "");
  }, [member.role, member.expiresAt]);
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: membersKey(org.id) });
    void queryClient.invalidateQueries({ queryKey: orgsKey });
  };
  const name = memberName(member);
  const save = useMutation({
    mutationFn: () => dataOf(api.PUT("/organisations/{id}/members/{userId}", { params: { path: { id: org.id, userId: member.userId } }, body: { role, expiresAt: role === auditor ? endOf(ends) : undefined } })),
    onSuccess: (m) => {
      refresh();
      toast({ title: t("organisation.roleChanged"), description: t("organisation.nowRole", { Name: name, Role: roleLabel(m.role).toLowerCase() }) });
    },
    onError: failed(t("organisation.roleNotChanged")),
  });
  const remove = useMutation({
    mutationFn: () => dataOf(api.DELETE("/organisations/{id}/members/{userId}", { params: { path: { id: org.id, userId: member.userId } } })),
    onSuccess: () => {
      refresh();
      toast({ title: t("organisation.removed"), description: t("organisation.noLongerMember", { Name: name, Org: org.name }) });
    },
    onError: failed(t("organisation.notRemoved")),
  });
  const rid = `member-role-${member.userId}`;
  const eid = `member-ends-${member.userId}`;
  const changed = role !== member.role || (role === auditor && ends !== (member.expiresAt?.slice(0, 10) ?? ""));
  return (
    <li className="grid gap-3 p-4 md:grid-cols-[1fr_auto]" data-member={member.userId} data-member-role={member.role}>
      <div className="min-w-0">
        <p className="font-medium">
          {name}
          {self && <span className="font-normal text-slate-600 dark:text-slate-300">{t("organisation.you")}</span>}
        </p>
        <p className="truncate text-sm text-slate-600 dark:text-slate-300">{member.email}</p>
        <p className="mt-1 text-sm">
          <span className="font-semibold" data-member-role-label>
            {roleLabel(member.role)}
          </span>
          {member.expiresAt && <span data-member-ends>{t("organisation.accessEnds", { Date: longDate(member.expiresAt) })}</span>}
        </p>
      </div>
      {org.canManageMembers && (
        <form
          className="flex flex-wrap items-end gap-2"
          aria-label={t("organisation.manage", { Name: name })}
          data-member-controls
          onSubmit={(e) => {
            e.preventDefault();
            save.mutate();
          }}
        >
          <label htmlFor={rid} className="text-xs font-medium">
            {t("organisation.role")}
            <select id={rid} className={`${inputClass} mt-1`} value={role} onChange={(e) => setRole(e.target.value as Role)}>
              {roles.map((r) => (
                <option key={r} value={r}>
                  {roleLabel(r)}
                </option>
              ))}
            </select>
          </label>
          {role === auditor && (
            <label htmlFor={eid} className="text-xs font-medium">
              {t("organisation.accessEndsOn")}
              <input id={eid} type="date" className={`${inputClass} mt-1`} value={ends} onChange={(e) => setEnds(e.target.value)} />
            </label>
          )}
          <button type="submit" className={secondaryButton} disabled={save.isPending || !changed}>
            {save.isPending ? t("organisation.saving") : t("organisation.saveRole")}
          </button>
          <button type="button" className={secondaryButton} disabled={remove.isPending} onClick={() => remove.mutate()}>
            {self ? t("organisation.leave") : t("organisation.remove")}
          </button>
        </form>
      )}
    </li>
  );
}

type InviteValues = z.infer<typeof inviteSchema>;

function InviteForm({ org, roles }: { org: Organisation; roles: Role[] }) {
  const form = useForm<InviteValues>({ resolver: zodResolver(inviteSchema), defaultValues: { email: "", role: "member", accessEndsOn: "" } });
  const role = form.watch("role");
  const invite = useMutation({
    mutationFn: (v: InviteValues) =>
      dataOf(
        api.POST("/organisations/{id}/invites", {
          params: { path: { id: org.id } },
          body: { email: v.email, role: v.role as Role, accessEndsAt: v.role === auditor ? endOf(v.accessEndsOn) : undefined },
        }),
      ),
    onSuccess: (inv) => {
      form.reset();
      toast({
        title: t("organisation.inviteSent"),
        description: t("organisation.inviteDetail", { Email: inv.email, Org: org.name, Role: roleLabel(inv.role).toLowerCase(), Date: longDate(inv.expiresAt) }),
      });
    },
    onError: (err) => {
      if (err instanceof ApiError) {
        if (err.fields.email) form.setError("email", { message: err.fields.email });
        if (err.fields.accessEndsAt) form.setError("accessEndsOn", { message: err.fields.accessEndsAt });
      }
      failed(t("organisation.notInvited"))(err);
    },
  });
  const errors = form.formState.errors;
  return (
    <Section title={t("organisation.invite")} id="organisation-invite">
      <form noValidate className="max-w-md space-y-4" onSubmit={form.handleSubmit((v) => invite.mutate(v))} data-invite-form>
        <Field id="invite-email" label={t("organisation.emailAddress")} type="email" autoComplete="off" error={errors.email?.message} reg={form.register("email")} />
        <div className="space-y-1">
          <label htmlFor="invite-role" className="block text-sm font-medium">
            {t("organisation.role")}
          </label>
          <select id="invite-role" className={inputClass} {...form.register("role")}>
            {roles.map((r) => (
              <option key={r} value={r}>
                {roleLabel(r)}
              </option>
            ))}
          </select>
        </div>
        {role === auditor && (
          <div className="space-y-1">
            <label htmlFor="invite-ends" className="block text-sm font-medium">
              {t("organisation.accessEndsOn")}
            </label>
            <input
              id="invite-ends"
              type="date"
              className={inputClass}
              aria-invalid={errors.accessEndsOn ? true : undefined}
              aria-describedby={errors.accessEndsOn ? "invite-ends-error" : undefined}
              {...form.register("accessEndsOn")}
            />
            <FieldError id="invite-ends-error" message={errors.accessEndsOn?.message} />
          </div>
        )}
        <button type="submit" className={secondaryButton} disabled={invite.isPending}>
          {invite.isPending ? t("organisation.sending") : t("organisation.sendInvite")}
        </button>
      </form>
    </Section>
  );
}

function Members({ org, roles, userId }: { org: Organisation; roles: Role[]; userId: string }) {
  const members = useQuery({
    queryKey: membersKey(org.id),
    queryFn: ({ signal }) => dataOf(api.GET("/organisations/{id}/members", { params: { path: { id: org.id } }, signal })),
  });
  return (
    <Section title={t("organisation.membersOf", { Name: org.name })} id="organisation-members">
      <p className="text-sm text-slate-600 dark:text-slate-300" data-my-role>
        {t("organisation.yourRole")} <span className="font-semibold">{roleLabel(org.role)}</span>
        {org.canManageMembers ? t("organisation.fullStop") : t("organisation.onlyAdmin")}
      </p>
      {members.isPending && <p className="mt-3 text-sm text-slate-600 dark:text-slate-300">{t("organisation.loadingMembers")}</p>}
      {members.isError && <p className="mt-3 text-sm text-red-700 dark:text-red-300">{userMessage(members.error, t("organisation.membersNotLoaded"))}</p>}
      {members.data && (
        <ul className="mt-3 divide-y divide-slate-200 rounded-lg border border-slate-200 dark:divide-slate-800 dark:border-slate-800" data-members>
          {members.data.map((m) => (
            <MemberRow key={m.userId} org={org} member={m} roles={roles} self={m.userId === userId} />
          ))}
        </ul>
      )}
    </Section>
  );
}

// Selected is the organisation of ?id=, as the API answers it: another's
// is its 404, in its words.
function Selected({ id, roles, userId }: { id: string; roles: Role[]; userId: string }) {
  const org = useQuery({
    queryKey: ["/organisations/{id}", id],
    queryFn: ({ signal }) => dataOf(api.GET("/organisations/{id}", { params: { path: { id } }, signal })),
    retry: false,
  });
  if (org.isPending) return <p className="text-sm text-slate-600 dark:text-slate-300">{t("organisation.loadingOrg")}</p>;
  if (org.isError)
    return (
      <p className="rounded-md border border-red-600 px-3 py-2 text-sm text-red-700 dark:border-red-400 dark:text-red-300" role="alert" data-organisation-error>
        {userMessage(org.error, t("organisation.orgNotLoaded"))}
      </p>
    );
  return (
    <div className="space-y-6" data-organisation={org.data.id} data-can-manage={org.data.canManageMembers}>
      <p className="flex flex-wrap gap-x-4 gap-y-1 text-sm" data-team-links>
        <a className="font-medium underline hover:no-underline" href={pagePath(`/organisation/board/?id=${encodeURIComponent(org.data.id)}`)}>
          {t("organisation.boardOf", { Name: org.data.name })}
        </a>
        <a className="font-medium underline hover:no-underline" href={pagePath(`/organisation/register/?id=${encodeURIComponent(org.data.id)}`)} data-organisation-register-link>
          {t("organisation.registerOf", { Name: org.data.name })}
        </a>
        <a className="font-medium underline hover:no-underline" href={pagePath("/work/")}>
          {t("organisation.myWork")}
        </a>
      </p>
      <Members org={org.data} roles={roles} userId={userId} />
      {org.data.canManageMembers && <InviteForm org={org.data} roles={roles} />}
      {org.data.canManageMembers && <SSOSettings org={org.data} />}
      {org.data.canManageMembers && <APIKeys org={org.data} />}
      {org.data.canManageMembers && <WebhookSettings org={org.data} />}
    </div>
  );
}

function OrganisationPage(props: Props) {
  const { user, isLoading } = useCurrentUser();
  const [state, set] = useQueryState({ id: "" });
  useEffect(() => {
    if (!isLoading && !user) window.location.replace(pagePath("/login") + "?next=" + pagePath("/organisation"));
  }, [isLoading, user]);
  const orgs = useOrganisations(!!user);
  // With one organisation or more and none chosen, the first is shown.
  const id = state.id || orgs.data?.[0]?.id || "";
  if (!user) return <p className="text-sm text-slate-600 dark:text-slate-300" role="status">{t("organisation.loadingAccount")}</p>;
  return (
    <div className="space-y-6" data-organisations>
      <Section title={t("organisation.yours")} id="organisation-list">
        {orgs.isPending && <p className="text-sm text-slate-600 dark:text-slate-300">{t("organisation.loadingOrgs")}</p>}
        {orgs.isError && <p className="text-sm text-red-700 dark:text-red-300">{userMessage(orgs.error, t("organisation.orgsNotLoaded"))}</p>}
        {orgs.data?.length === 0 && <p className="text-sm" data-no-organisations>
            {t("organisation.none")}
          </p>}
        {orgs.data && orgs.data.length > 0 && (
          <ul className="flex flex-wrap gap-2" data-organisation-list>
            {orgs.data.map((o) => (
              <li key={o.id}>
                <a
                  href={pagePath(`/organisation?id=${encodeURIComponent(o.id)}`)}
                  aria-current={o.id === id ? "page" : undefined}
                  className="inline-flex items-center gap-2 rounded-md border border-slate-300 px-3 py-2 text-sm no-underline hover:bg-slate-50 aria-[current=page]:border-brand-700 aria-[current=page]:font-semibold dark:border-slate-600 dark:hover:bg-slate-800"
                  onClick={(e) => {
                    e.preventDefault();
                    set({ id: o.id });
                  }}
                >
                  {o.name} <span className="text-xs text-slate-600 dark:text-slate-300">({roleLabel(o.role)})</span>
                </a>
              </li>
            ))}
          </ul>
        )}
      </Section>
      {id && <Selected key={id} id={id} roles={props.roles} userId={user.id} />}
      <CreateForm entityTypes={props.entityTypes} onCreated={(o) => set({ id: o.id })} />
    </div>
  );
}

export default withProviders(OrganisationPage);
