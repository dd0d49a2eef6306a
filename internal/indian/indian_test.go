package indian

import (
	"math"
	"testing"
)

func TestGroup(t *testing.T) {
	for _, c := range []struct {
		n    int64
		want string
	}{
		{0, "0"},
		{7, "7"},
		{999, "999"},
		{1000, "1,000"},
		{12345, "12,345"},
		{99999, "99,999"},
		{100000, "1,00,000"},
		{999999, "9,99,999"},
		{1000000, "10,00,000"},
		{10000000, "1,00,00,000"},
		{123456789, "12,34,56,789"},
		{-1, "-1"},
		{-999, "-999"},
		{-1000, "-1,000"},
		{-123456789, "-12,34,56,789"},
		{math.MaxInt64, "92,23,37,20,36,85,47,75,807"},
		{math.MinInt64, "-92,23,37,20,36,85,47,75,808"},
	} {
		if got := Group(c.n); got != c.want {
			t.Errorf("Group(%d) = %q, want %q", c.n, got, c.want)
		}
	}
}

func TestInt(t *testing.T) {
	if got, want := Int(100000), "1,00,000"; got != want {
		t.Errorf("Int(100000) = %q, want %q", got, want)
	}
}

func TestRupees(t *testing.T) {
	for _, c := range []struct {
		paise int64
		want  string
	}{
		{0, "₹0"},
		{5, "₹0.05"},
		{50, "₹0.50"},
		{99900, "₹999"},
		{100000, "₹1,000"},
		{9999900, "₹99,999"},
		{10000000, "₹1,00,000"},
		{1000000000, "₹1,00,00,000"},
		{12345678950, "₹12,34,56,789.50"},
		{-50000, "-₹500"},
		{-12345678901, "-₹12,34,56,789.01"},
	} {
		if got := Rupees(c.paise); got != c.want {
			t.Errorf("Rupees(%d) = %q, want %q", c.paise, got, c.want)
		}
	}
}
