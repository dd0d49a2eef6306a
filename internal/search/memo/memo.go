// Package memo is a bounded map for the search's caches of what is
// costly to make again for each answer (a circular's row, its JSON): the
// least recently used entries go first once the entries' sizes pass a
// limit. It is safe for concurrent use.
package memo

import (
	"container/list"
	"sync"
)

// Map holds values of K under a limit on the sum of their sizes.
type Map[K comparable, V any] struct {
	mu      sync.Mutex
	limit   int
	size    int
	entries map[K]*list.Element
	order   list.List // front: the most recently used
}

type entry[K comparable, V any] struct {
	key  K
	val  V
	size int
}

// New is an empty Map whose entries' sizes sum to at most limit.
func New[K comparable, V any](limit int) *Map[K, V] {
	return &Map[K, V]{limit: limit, entries: map[K]*list.Element{}}
}

// Get is the value of key, if held.
func (m *Map[K, V]) Get(key K) (V, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	e, ok := m.entries[key]
	if !ok {
		var zero V
		return zero, false
	}
	m.order.MoveToFront(e)
	return e.Value.(*entry[K, V]).val, true
}

// Put holds val of size under key, in place of any value before, and lets
// go of the least recently used entries beyond the limit. A value larger
// than the limit is not held.
func (m *Map[K, V]) Put(key K, val V, size int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.remove(key)
	if size > m.limit {
		return
	}
	m.entries[key] = m.order.PushFront(&entry[K, V]{key: key, val: val, size: size})
	m.size += size
	for m.size > m.limit {
		m.remove(m.order.Back().Value.(*entry[K, V]).key)
	}
}

// Delete lets go of key's value.
func (m *Map[K, V]) Delete(key K) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.remove(key)
}

// Clear lets go of every value.
func (m *Map[K, V]) Clear() {
	m.mu.Lock()
	defer m.mu.Unlock()
	clear(m.entries)
	m.order.Init()
	m.size = 0
}

// Len is how many values are held.
func (m *Map[K, V]) Len() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.entries)
}

func (m *Map[K, V]) remove(key K) {
	if e, ok := m.entries[key]; ok {
		m.size -= e.Value.(*entry[K, V]).size
		m.order.Remove(e)
		delete(m.entries, key)
	}
}
