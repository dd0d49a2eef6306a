package store

import "fmt"

// wrap prefixes *errp, when set, with "store: " and the method's name:
// one deferred call per exported method rather than a wrap at each of its
// returns (pkgsite's derrors.Wrap). Sentinels such as ErrNotFound stay
// visible to errors.Is.
func wrap(errp *error, op string) {
	if *errp != nil {
		*errp = fmt.Errorf("store: %s: %w", op, *errp)
	}
}
