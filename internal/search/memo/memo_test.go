package memo

import "testing"

func TestMap(t *testing.T) {
	for _, tc := range []struct {
		name string
		run  func(m *Map[int, string])
		held map[int]string
	}{
		{"kept", func(m *Map[int, string]) { m.Put(1, "a", 4); m.Put(2, "b", 4) }, map[int]string{1: "a", 2: "b"}},
		{"replaced", func(m *Map[int, string]) { m.Put(1, "a", 4); m.Put(1, "b", 8) }, map[int]string{1: "b"}},
		{"least recently used first", func(m *Map[int, string]) {
			m.Put(1, "a", 4)
			m.Put(2, "b", 4)
			m.Get(1)
			m.Put(3, "c", 4) // 12 > 10: 2 goes
		}, map[int]string{1: "a", 3: "c"}},
		{"too large", func(m *Map[int, string]) { m.Put(1, "a", 4); m.Put(2, "b", 11) }, map[int]string{1: "a"}},
		{"deleted", func(m *Map[int, string]) { m.Put(1, "a", 4); m.Put(2, "b", 4); m.Delete(1) }, map[int]string{2: "b"}},
		{"cleared", func(m *Map[int, string]) { m.Put(1, "a", 4); m.Clear(); m.Put(2, "b", 10) }, map[int]string{2: "b"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := New[int, string](10)
			tc.run(m)
			if m.Len() != len(tc.held) {
				t.Errorf("Len = %d, want %d", m.Len(), len(tc.held))
			}
			for k, want := range tc.held {
				if got, ok := m.Get(k); !ok || got != want {
					t.Errorf("Get(%d) = %q, %v; want %q", k, got, ok, want)
				}
			}
		})
	}
}
