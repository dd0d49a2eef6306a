package main

import (
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"regpulse/internal/alerts"
	"regpulse/internal/auth"
	"regpulse/internal/catalog"
	"regpulse/internal/decisions"
	"regpulse/internal/jobs"
	"regpulse/internal/store"
	"regpulse/internal/store/storetest"
	"regpulse/internal/teams"
)

func TestAlerts_CLI(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(SMTPURLEnv, "")
	db, err := store.Open(t.Context(), filepath.Join(dir, "regpulse.db"))
	if err != nil {
		t.Fatal(err)
	}
	cat := storetest.Catalog()
	if _, err := db.SyncCatalog(t.Context(), cat); err != nil {
		t.Fatal(err)
	}
	u, err := db.CreateUser(t.Context(), auth.NewUser{Username: "asha", Email: "asha@example.com", PasswordHash: "x", FirstName: "A", LastName: "R"})
	if err != nil {
		t.Fatal(err)
	}
	// The preferences' daily digest would go too after 07:00 UTC: off.
	if _, err := db.SavePreferences(t.Context(), u.ID, auth.Choices{}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.CreateAlert(t.Context(), alerts.Alert{UserID: u.ID, Name: "UPI", Query: "upi", Frequency: alerts.Immediately, Enabled: true}); err != nil {
		t.Fatal(err)
	}
	time.Sleep(time.Millisecond) // the circular arrives after the alert was made
	cat.Circulars = append(cat.Circulars, storetest.Circular("npci-2025-07-01-upi-new", "NPCI", "UPI", "2025-07-01", "high"))
	if _, err := db.SyncCatalog(t.Context(), cat); err != nil {
		t.Fatal(err)
	}
	db.Close()

	out, _, err := runCmd(t, "alerts", "--help")
	if err != nil || !strings.Contains(out, "usage: regpulse alerts") {
		t.Fatalf("--help: %q, %v", out, err)
	}
	// The storetest circulars arrived before the alert was made: only the
	// new one is sent.
	out, _, err = runCmd(t, "alerts", "send", "--data", dir, "--base-url", "https://regpulse.example/")
	if err != nil || !strings.Contains(out, "1 e-mails sent") {
		t.Fatalf("send: %q, %v", out, err)
	}
	emls, _ := filepath.Glob(filepath.Join(dir, "outbox", "alerts", "alert-*.eml"))
	if len(emls) != 1 {
		t.Fatalf("%d .eml files", len(emls))
	}
	b, _ := os.ReadFile(emls[0])
	if !strings.Contains(string(b), "https://regpulse.example/api/alerts/unsubscribe?token=") {
		t.Errorf("the e-mail has no unsubscribe link:\n%s", b)
	}
	out, _, err = runCmd(t, "alerts", "stats", "--data", dir)
	if err != nil || !strings.Contains(out, "e-mails sent") || !strings.Contains(out, "search/immediately") ||
		!strings.Contains(out, "Master Directions followed") {
		t.Errorf("stats: %q, %v", out, err)
	}
	out, _, err = runCmd(t, "alerts", "list", "--data", dir)
	if err != nil || !strings.Contains(out, "asha@example.com") || !strings.Contains(out, "preferences") {
		t.Errorf("list: %q, %v", out, err)
	}
	if out, _, err = runCmd(t, "alerts", "bouncing", "--data", dir); err != nil || !strings.Contains(out, "ADDRESS") {
		t.Errorf("bouncing: %q, %v", out, err)
	}
	today := time.Now().UTC()
	out, _, err = runCmd(t, "alerts", "resend", "--data", dir, "--from", today.Format(time.DateOnly), "--to", today.AddDate(0, 0, 1).Format(time.DateOnly))
	if err != nil || !strings.Contains(out, "1 matches will be sent again") {
		t.Errorf("resend: %q, %v", out, err)
	}
	for _, args := range [][]string{{"alerts"}, {"alerts", "purge"}, {"alerts", "resend", "--data", dir, "--from", "2025-07-02", "--to", "2025-07-01"}} {
		if _, _, err := runCmd(t, args...); err == nil {
			t.Errorf("%v succeeded", args)
		}
	}
}

// TestAlertsRun_Reminders: the alerts' run (serve --alerts-every,
// regpulse alerts send) sends the decisions' reminders from 07:00 UTC
// into the alerts' outbox, once a day.
func TestAlertsRun_Reminders(t *testing.T) {
	dir := t.TempDir()
	db, err := store.Open(t.Context(), filepath.Join(dir, "regpulse.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.SyncCatalog(t.Context(), storetest.Catalog()); err != nil {
		t.Fatal(err)
	}
	u, err := db.CreateUser(t.Context(), auth.NewUser{Username: "asha", Email: "asha@example.com", PasswordHash: "x", FirstName: "Asha", LastName: "R"})
	if err != nil {
		t.Fatal(err)
	}
	org, err := db.CreateOrganisation(t.Context(), teams.Actor{UserID: u.ID}, "Asha Payments", nil)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2025, 6, 30, 6, 0, 0, 0, time.UTC)
	due := catalog.Date{Time: time.Date(2025, 7, 2, 0, 0, 0, 0, time.UTC)}
	if _, err := db.PutDecision(t.Context(), teams.Actor{UserID: u.ID, OrganisationID: org.ID}, decisions.Decision{
		Subject:       decisions.Subject{Type: decisions.SubjectCircular, ID: catalog.IDForPath("circulars/" + storetest.SlugUPIFraud + ".md")},
		Applicability: decisions.Applicable, OwnerID: catalog.OptString(u.ID), DueDate: &due}); err != nil {
		t.Fatal(err)
	}
	env := jobs.Env{DB: db, Mail: jobs.Mail{From: "RegPulse <alerts@regpulse.example>"}, BaseURL: "https://regpulse.example/", Data: dir,
		Holder: "test", Getenv: func(string) string { return "" }, Log: slog.New(slog.DiscardHandler), Now: func() time.Time { return now }}
	reminders := func() []string {
		emls, _ := filepath.Glob(filepath.Join(dir, "outbox", "alerts", "reminder-*.eml"))
		return emls
	}
	if _, err := jobs.Alerts(t.Context(), env); err != nil || len(reminders()) != 0 {
		t.Fatalf("before 07:00: %v, %v", reminders(), err)
	}
	now = now.Add(2 * time.Hour)
	for range 2 {
		if _, err := jobs.Alerts(t.Context(), env); err != nil {
			t.Fatal(err)
		}
	}
	emls := reminders()
	if len(emls) != 1 {
		t.Fatalf("%d reminders, want 1", len(emls))
	}
	b, _ := os.ReadFile(emls[0])
	if !strings.Contains(string(b), "Subject: RegPulse reminder: 1 due within 7 days") || !strings.Contains(string(b), "UPI fraud risk controls") {
		t.Errorf("the reminder:\n%s", b)
	}
	if out, _, err := runCmd(t, "alerts", "stats", "--data", dir); err != nil || !regexp.MustCompile(`reminders of decisions sent +1\n`).MatchString(out) {
		t.Errorf("stats: %q, %v", out, err)
	}
}
