package store

import (
	"database/sql/driver"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"time"
	"unicode"

	"regpulse/internal/catalog"
)

// A table's columns follow the entity type it stores: one column per JSON
// field of the type (fields of embedded structs included), named as the
// JSON field in snake_case: publishedDate is published_date. So the store
// reads and writes an entity whole, and a new field needs only the
// migrations that add its column: one per dialect, with the same version
// (migrations/ for SQLite, migrations/postgres/; TestMigrations_SameVersions).
//
// How values are kept, so that both SQLite and PostgreSQL hold them:
//   - catalog.Date: 'YYYY-MM-DD' text (compares as a date); *catalog.Date
//     nil is NULL.
//   - catalog.OptInt: 0 is NULL.
//   - lists (catalog.TextList, []catalog.EntityImpact): JSON arrays as text.
//   - time.Time: RFC 3339 text in UTC, to the second.
//   - text and catalog.OptString: text, ” when absent; bool and int as is.
//   - an optional object (a pointer to a struct) is JSON text, NULL when
//     nil (a version's *catalog.AmendingCircular), or a JSON object a query
//     builds from another table (a circular's *catalog.GeneratedSummary,
//     never written).
type columns[T any] struct {
	names []string
	index [][]int // the field of each column, as reflect.Value.FieldByIndex takes it
}

func columnsOf[T any]() columns[T] {
	var c columns[T]
	for _, f := range reflect.VisibleFields(reflect.TypeFor[T]()) {
		if !f.IsExported() || f.Anonymous {
			continue // an embedded struct's own fields are listed after it
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" || name == "" || f.Tag.Get("store") == "-" { // store:"-": computed, never stored
			continue
		}
		c.names = append(c.names, snakeCase(name))
		c.index = append(c.index, f.Index)
	}
	return c
}

// without is c less the named columns: fields a table does not hold
// itself (a circular's aiSummary, joined in from circular_summaries).
func (c columns[T]) without(names ...string) columns[T] {
	var out columns[T]
	for i, n := range c.names {
		if !slices.Contains(names, n) {
			out.names = append(out.names, n)
			out.index = append(out.index, c.index[i])
		}
	}
	return out
}

// snakeCase turns a JSON field name into its column: leaderIsCeo is
// leader_is_ceo.
func snakeCase(s string) string {
	var b strings.Builder
	for i, r := range s {
		if unicode.IsUpper(r) {
			if i > 0 {
				b.WriteByte('_')
			}
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}

// selectList is the columns as a SELECT list, each prefixed with alias
// and a dot unless alias is ""; expr replaces a column by an expression.
func (c columns[T]) selectList(alias string, expr map[string]string) string {
	out := make([]string, len(c.names))
	for i, n := range c.names {
		switch {
		case expr[n] != "":
			out[i] = expr[n] + " AS " + n
		case alias != "":
			out[i] = alias + "." + n
		default:
			out[i] = n
		}
	}
	return strings.Join(out, ", ")
}

// targets are the Scan destinations of v's columns, in order.
func (c columns[T]) targets(v *T) []any {
	rv := reflect.ValueOf(v).Elem()
	out := make([]any, len(c.index))
	for i, idx := range c.index {
		out[i] = scanTarget(rv.FieldByIndex(idx))
	}
	return out
}

// values are v's column values, in order.
func (c columns[T]) values(v T) ([]any, error) {
	rv := reflect.ValueOf(v)
	out := make([]any, len(c.index))
	for i, idx := range c.index {
		val, err := columnValue(rv.FieldByIndex(idx))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", c.names[i], err)
		}
		out[i] = val
	}
	return out, nil
}

// value is the value of column name in v.
func (c columns[T]) value(v T, name string) any {
	for i, n := range c.names {
		if n == name {
			return reflect.ValueOf(v).FieldByIndex(c.index[i]).Interface()
		}
	}
	panic("store: no column " + name)
}

var (
	dateType    = reflect.TypeFor[catalog.Date]()
	optDateType = reflect.TypeFor[*catalog.Date]()
	optIntType  = reflect.TypeFor[catalog.OptInt]()
	timeType    = reflect.TypeFor[time.Time]()
)

func scanTarget(f reflect.Value) any {
	p := f.Addr().Interface()
	switch f.Type() {
	case dateType:
		return (*dateColumn)(p.(*catalog.Date))
	case optDateType:
		return optDateColumn{p.(**catalog.Date)}
	case optIntType:
		return (*optIntColumn)(p.(*catalog.OptInt))
	case timeType:
		return (*timeColumn)(p.(*time.Time))
	}
	if f.Kind() == reflect.Slice {
		return jsonColumn{f}
	}
	if f.Kind() == reflect.Pointer && f.Type().Elem().Kind() == reflect.Struct {
		return optObjectColumn{f}
	}
	return p
}

func columnValue(f reflect.Value) (any, error) {
	switch f.Type() {
	case dateType:
		return dateColumn(f.Interface().(catalog.Date)).Value()
	case optDateType:
		if f.IsNil() {
			return nil, nil
		}
		return dateColumn(*f.Interface().(*catalog.Date)).Value()
	case optIntType:
		return optIntColumn(f.Interface().(catalog.OptInt)).Value()
	case timeType:
		return timeColumn(f.Interface().(time.Time)).Value()
	}
	switch f.Kind() {
	case reflect.Slice:
		return jsonColumn{f}.Value()
	case reflect.Pointer:
		if f.Type().Elem().Kind() != reflect.Struct {
			break
		}
		if f.IsNil() {
			return nil, nil
		}
		b, err := json.Marshal(f.Interface())
		return string(b), err
	case reflect.String:
		return f.String(), nil
	case reflect.Bool:
		return f.Bool(), nil
	case reflect.Int, reflect.Int64, reflect.Int32:
		return f.Int(), nil
	}
	return nil, fmt.Errorf("no column encoding for %s", f.Type())
}

const dateLayout = "2006-01-02"

// dateColumn reads and writes a catalog.Date.
type dateColumn catalog.Date

func (d dateColumn) Value() (driver.Value, error) { return d.Format(dateLayout), nil }

func (d *dateColumn) Scan(src any) error {
	switch v := src.(type) {
	case time.Time: // a DATE column of PostgreSQL
		d.Time = catalog.Day(v)
		return nil
	case string:
		return (*catalog.Date)(d).UnmarshalText([]byte(v))
	case []byte:
		return (*catalog.Date)(d).UnmarshalText(v)
	}
	return fmt.Errorf("stored date %v: want text", src)
}

// optDateColumn reads and writes a *catalog.Date, nil as NULL.
type optDateColumn struct{ ptr **catalog.Date }

func (c optDateColumn) Scan(src any) error {
	if src == nil {
		*c.ptr = nil
		return nil
	}
	var d catalog.Date
	if err := (*dateColumn)(&d).Scan(src); err != nil {
		return err
	}
	*c.ptr = &d
	return nil
}

// optIntColumn reads and writes a catalog.OptInt, 0 as NULL.
type optIntColumn catalog.OptInt

func (n optIntColumn) Value() (driver.Value, error) {
	if n == 0 {
		return nil, nil
	}
	return int64(n), nil
}

func (n *optIntColumn) Scan(src any) error {
	switch v := src.(type) {
	case nil:
		*n = 0
	case int64:
		*n = optIntColumn(v)
	default:
		return fmt.Errorf("stored whole number %v: want an integer", src)
	}
	return nil
}

// timeColumn reads and writes a time.Time as RFC 3339 text in UTC.
type timeColumn time.Time

func (t timeColumn) Value() (driver.Value, error) {
	return time.Time(t).UTC().Format(time.RFC3339), nil
}

func (t *timeColumn) Scan(src any) error {
	var s string
	switch v := src.(type) {
	case time.Time:
		*t = timeColumn(v.UTC())
		return nil
	case string:
		s = v
	case []byte:
		s = string(v)
	default:
		return fmt.Errorf("stored time %v: want text", src)
	}
	v, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return fmt.Errorf("stored time %q: %w", s, err)
	}
	*t = timeColumn(v)
	return nil
}

// optObjectColumn reads an optional object (a pointer to a struct, e.g.
// *catalog.GeneratedSummary) from a JSON object, NULL as nil. Such a field
// is built by a query from the rows of another table, never written.
type optObjectColumn struct{ ptr reflect.Value }

func (c optObjectColumn) Scan(src any) error {
	var b []byte
	switch v := src.(type) {
	case nil:
		c.ptr.SetZero()
		return nil
	case string:
		b = []byte(v)
	case []byte:
		b = v
	default:
		return fmt.Errorf("stored object %v: want text", src)
	}
	obj := reflect.New(c.ptr.Type().Elem())
	if err := json.Unmarshal(b, obj.Interface()); err != nil {
		return fmt.Errorf("stored object %.40q: %w", b, err)
	}
	c.ptr.Set(obj)
	return nil
}

// jsonColumn reads and writes a list as a JSON array; it is never nil.
type jsonColumn struct{ list reflect.Value }

func (c jsonColumn) Value() (driver.Value, error) {
	if c.list.IsNil() {
		return "[]", nil
	}
	b, err := json.Marshal(c.list.Interface())
	return string(b), err
}

func (c jsonColumn) Scan(src any) error {
	var b []byte
	switch v := src.(type) {
	case string:
		b = []byte(v)
	case []byte:
		b = v
	default:
		return fmt.Errorf("stored list %v: want text", src)
	}
	list := reflect.New(c.list.Type())
	if len(b) > 0 && string(b) != "[]" {
		if err := json.Unmarshal(b, list.Interface()); err != nil {
			return fmt.Errorf("stored list %.40q: %w", b, err)
		}
	}
	if list.Elem().IsNil() {
		list.Elem().Set(reflect.MakeSlice(c.list.Type(), 0, 0))
	}
	c.list.Set(list.Elem())
	return nil
}
