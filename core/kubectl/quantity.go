package kubectl

import (
	"strconv"
	"strings"

	"converge/core/api"
)

// quantitySum adds resource quantities and prints the sum the way
// resource.Quantity does after arithmetic: in canonical form, in the format
// (binary or decimal suffixes) of the first quantity added.
type quantitySum struct {
	milli  int64
	binary bool
	set    bool
}

func (s *quantitySum) add(q api.Quantity) {
	if !s.set {
		s.binary = strings.HasSuffix(q.String(), "i")
		s.set = true
	}
	s.milli += q.MilliValue()
}

func (s *quantitySum) addSum(o *quantitySum) {
	if o == nil || !o.set {
		return
	}
	if !s.set {
		s.binary, s.set = o.binary, true
	}
	s.milli += o.milli
}

// value is the sum rounded up to a whole unit.
func (s *quantitySum) value() int64 {
	if s.milli >= 0 {
		return (s.milli + 999) / 1000
	}
	return s.milli / 1000
}

// String is the canonical form: 0, 250m, 2, 1500, 3k, 384Mi, 2Gi.
func (s *quantitySum) String() string {
	if s == nil || s.milli == 0 {
		return "0"
	}
	if s.milli%1000 != 0 {
		return strconv.FormatInt(s.milli, 10) + "m"
	}
	v := s.milli / 1000
	if s.binary {
		for _, u := range []struct {
			suffix string
			shift  uint
		}{{"Ei", 60}, {"Pi", 50}, {"Ti", 40}, {"Gi", 30}, {"Mi", 20}, {"Ki", 10}} {
			if v%(int64(1)<<u.shift) == 0 {
				return strconv.FormatInt(v>>u.shift, 10) + u.suffix
			}
		}
		return strconv.FormatInt(v, 10)
	}
	for _, u := range []struct {
		suffix string
		div    int64
	}{{"E", 1e18}, {"P", 1e15}, {"T", 1e12}, {"G", 1e9}, {"M", 1e6}, {"k", 1e3}} {
		if v%u.div == 0 {
			return strconv.FormatInt(v/u.div, 10) + u.suffix
		}
	}
	return strconv.FormatInt(v, 10)
}
