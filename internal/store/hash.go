package store

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"hash"
	"math"
	"reflect"
	"slices"
	"strings"
	"time"
)

// hashVersion changes when the mapping of entries to rows changes (or how
// entries are hashed), so the next sync rewrites every row.
const hashVersion = "regpulse-store-3\n"

// entryHash identifies an entry's content: a SHA-256 of every field a
// JSON encoding would carry (json:"-" fields are not content), each
// length-prefixed so that no two entries share an encoding. Hashing the
// values themselves rather than their JSON keeps a sync of a hundred
// thousand long circulars from spending seconds escaping text.
func entryHash(v any) (string, error) {
	h := sha256.New()
	h.Write([]byte(hashVersion))
	if err := hashValue(h, reflect.ValueOf(v), make([]byte, 0, binary.MaxVarintLen64)); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

func hashValue(h hash.Hash, v reflect.Value, buf []byte) error {
	num := func(n uint64) { h.Write(binary.AppendUvarint(buf[:0], n)) }
	switch v.Kind() {
	case reflect.Invalid:
		num(0)
	case reflect.String:
		s := v.String()
		num(uint64(len(s)))
		h.Write([]byte(s))
	case reflect.Bool:
		if v.Bool() {
			num(1)
		} else {
			num(0)
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		num(uint64(v.Int()))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		num(v.Uint())
	case reflect.Float32, reflect.Float64:
		num(math.Float64bits(v.Float()))
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.IsNil() {
			num(0)
			return nil
		}
		num(uint64(v.Len()) + 1)
		for i := range v.Len() {
			if err := hashValue(h, v.Index(i), buf); err != nil {
				return err
			}
		}
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			num(0)
			return nil
		}
		num(1)
		return hashValue(h, v.Elem(), buf)
	case reflect.Map:
		keys := v.MapKeys()
		slices.SortFunc(keys, func(a, b reflect.Value) int {
			return compareKeys(a, b)
		})
		num(uint64(len(keys)))
		for _, k := range keys {
			if err := hashValue(h, k, buf); err != nil {
				return err
			}
			if err := hashValue(h, v.MapIndex(k), buf); err != nil {
				return err
			}
		}
	case reflect.Struct:
		if v.Type() == timeType {
			t := v.Interface().(time.Time)
			num(uint64(t.UnixNano()))
			_, offset := t.Zone()
			num(uint64(offset))
			return nil
		}
		t := v.Type()
		for i := range t.NumField() {
			f := t.Field(i)
			if !f.IsExported() || f.Tag.Get("json") == "-" {
				continue
			}
			if err := hashValue(h, v.Field(i), buf); err != nil {
				return fmt.Errorf("%s: %w", f.Name, err)
			}
		}
	default:
		return fmt.Errorf("store: cannot hash a %s", v.Type())
	}
	return nil
}

// compareKeys orders map keys: strings as strings, others by their
// printed form.
func compareKeys(a, b reflect.Value) int {
	if a.Kind() == reflect.String {
		return strings.Compare(a.String(), b.String())
	}
	return strings.Compare(fmt.Sprint(a.Interface()), fmt.Sprint(b.Interface()))
}
