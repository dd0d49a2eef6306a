package main

import (
	"strings"
	"testing"
)

func TestObligations(t *testing.T) {
	dir := t.TempDir()
	out, _, err := runCmd(t, "obligations", "extract", "--content", "../../content", "--data", dir)
	if err != nil || !strings.Contains(out, "circulars extracted") || !strings.Contains(out, "with written obligations") {
		t.Fatalf("extract = %q, %v", out, err)
	}
	const slug = "irdai-2017-04-07-insurer-cyber-security-guidelines" // no written obligations; the rules find one
	out, _, err = runCmd(t, "obligations", "accept", slug, "--data", dir)
	if err != nil || out != "1 extracted obligations of "+slug+" accepted\n" {
		t.Fatalf("accept = %q, %v", out, err)
	}
	out, _, err = runCmd(t, "obligations", "extract", "--force", "--content", "../../content", "--data", dir)
	if err != nil || !strings.Contains(out, "1 accepted by an editor") {
		t.Errorf("extract after accept = %q, %v", out, err)
	}
	for _, args := range [][]string{{"obligations", "--help"}, {"obligations", "extract", "--help"}, {"obligations", "accept", "-h"}} {
		if out, _, err := runCmd(t, args...); err != nil || !strings.Contains(out, "usage: regpulse obligations") {
			t.Errorf("%v = %q, %v; want the usage and no error", args, out, err)
		}
	}
	for _, args := range [][]string{{"obligations"}, {"obligations", "accept", "--data", dir}, {"obligations", "accept", "no-such-circular", "--data", dir}, {"obligations", "delete"}} {
		if _, _, err := runCmd(t, args...); err == nil {
			t.Errorf("%v succeeded", args)
		}
	}
}
