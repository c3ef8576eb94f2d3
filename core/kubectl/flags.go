package kubectl

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// flagKind is the pflag type of a flag, which decides how its value parses.
type flagKind int

const (
	boolFlag flagKind = iota
	stringFlag
	intFlag // int, int32 and int64 flags; bits says which
	durationFlag
	stringSliceFlag // comma-separated values, repeatable (--filename, --image)
	stringArrayFlag // one value per use, repeatable (--from-literal, --env)
)

// flagSpec is one flag of a command, as kubectl declares it.
type flagSpec struct {
	name     string
	short    string
	kind     flagKind
	bits     int    // for intFlag: 32 or 64 (0 means int)
	def      string // default value
	noOpt    string // value when given without "=value" (bools: "true")
	required bool
}

// FlagValue is one flag as given on the command line, by its long name.
type FlagValue struct {
	Name  string
	Value string
}

// Flag constructors, named after pflag's.
func boolF(name, short string) flagSpec {
	return flagSpec{name: name, short: short, kind: boolFlag, def: "false", noOpt: "true"}
}
func boolDefF(name, short, def string) flagSpec {
	return flagSpec{name: name, short: short, kind: boolFlag, def: def, noOpt: "true"}
}
func stringF(name, short, def string) flagSpec {
	return flagSpec{name: name, short: short, kind: stringFlag, def: def}
}
func intF(name, short string, bits int, def string) flagSpec {
	return flagSpec{name: name, short: short, kind: intFlag, bits: bits, def: def}
}
func durationF(name, def string) flagSpec { return flagSpec{name: name, kind: durationFlag, def: def} }
func sliceF(name, short string) flagSpec {
	return flagSpec{name: name, short: short, kind: stringSliceFlag}
}
func arrayF(name, short string) flagSpec {
	return flagSpec{name: name, short: short, kind: stringArrayFlag}
}
func required(f flagSpec) flagSpec { f.required = true; return f }

// Flags every command takes (kubectl's global flags that matter here).
var globalFlags = []flagSpec{
	stringF("namespace", "n", ""),
	boolF("help", "h"),
}

// flagSet parses one command's flags the way pflag does: flags may come
// before, between or after arguments; "--" ends them.
type flagSet struct {
	specs []flagSpec
	path  string // "kubectl scale", for error texts
	vals  []FlagValue
	args  []string
	// argAt is the index, in the words parsed, of each of args.
	argAt []int
}

// at is where in the words parsed a flag error is: the word's index and
// how many bytes into it.
type at struct{ word, skip int }

// wordError is an error of a flag's word or value, and where it is relative
// to the flag's word (word 1: the next word, its value).
type wordError struct {
	err error
	at  at
}

func (e *wordError) Error() string { return e.err.Error() }

func atWord(err error, word, skip int) error {
	if err == nil {
		return nil
	}
	return &wordError{err: err, at: at{word: word, skip: skip}}
}

func (fs *flagSet) lookup(name string) *flagSpec {
	for i := range fs.specs {
		if fs.specs[i].name == name {
			return &fs.specs[i]
		}
	}
	return nil
}

func (fs *flagSet) lookupShort(c string) *flagSpec {
	for i := range fs.specs {
		if fs.specs[i].short == c {
			return &fs.specs[i]
		}
	}
	return nil
}

// parse consumes words; errors are pflag's texts, wrapped as flag errors,
// with the word they concern.
func (fs *flagSet) parse(words []string) *ParseError {
	for i := 0; i < len(words); i++ {
		w := words[i]
		var n int
		var err error
		switch {
		case w == "--":
			for j := i + 1; j < len(words); j++ {
				fs.arg(words[j], j)
			}
			return nil
		case strings.HasPrefix(w, "--"):
			n, err = fs.parseLong(w, words[i+1:])
		case strings.HasPrefix(w, "-") && len(w) > 1:
			n, err = fs.parseShort(w, words[i+1:])
		default:
			fs.arg(w, i)
		}
		if err != nil {
			pos := at{word: i}
			if we, ok := err.(*wordError); ok {
				pos = at{word: i + we.at.word, skip: we.at.skip}
			}
			return &ParseError{Msg: err.Error(), err: &flagError{path: fs.path, msg: err.Error()}, at: pos}
		}
		i += n
	}
	return nil
}

func (fs *flagSet) arg(w string, i int) {
	fs.args = append(fs.args, w)
	fs.argAt = append(fs.argAt, i)
}

// parseLong handles --name, --name=value and --name value; it returns how
// many following words it consumed.
func (fs *flagSet) parseLong(w string, rest []string) (int, error) {
	name := w[2:]
	if name == "" || name[0] == '-' || name[0] == '=' {
		return 0, fmt.Errorf(msgBadFlagSyntax, w)
	}
	value, hasValue := "", false
	if i := strings.IndexByte(name, '='); i >= 0 {
		name, value, hasValue = name[:i], name[i+1:], true
	}
	spec := fs.lookup(name)
	if spec == nil {
		return 0, fmt.Errorf(msgUnknownFlag, name)
	}
	consumed := 0
	switch {
	case hasValue:
	case spec.noOpt != "":
		value = spec.noOpt
	case len(rest) > 0:
		value, consumed = rest[0], 1
	default:
		return 0, fmt.Errorf(msgFlagNeedsArgument, name)
	}
	if hasValue {
		return 0, atWord(fs.set(spec, value), 0, len("--"+name+"="))
	}
	return consumed, atWord(fs.set(spec, value), consumed, 0)
}

// parseShort handles -n value, -nvalue, -n=value and clusters of boolean
// shorthands such as -Aw.
func (fs *flagSet) parseShort(w string, rest []string) (int, error) {
	shorts := w[1:]
	for len(shorts) > 0 {
		c := shorts[:1]
		spec := fs.lookupShort(c)
		here := len(w) - len(shorts) // the shorthand's byte in w
		if spec == nil {
			return 0, atWord(fmt.Errorf(msgUnknownShorthand, rune(c[0]), w), 0, here)
		}
		after := shorts[1:]
		switch {
		case len(after) > 0 && after[0] == '=':
			return 0, atWord(fs.set(spec, after[1:]), 0, here+2)
		case spec.noOpt != "":
			if err := fs.set(spec, spec.noOpt); err != nil {
				return 0, atWord(err, 0, here)
			}
			shorts = after
			continue
		case len(after) > 0:
			return 0, atWord(fs.set(spec, after), 0, here+1)
		case len(rest) > 0:
			return 1, atWord(fs.set(spec, rest[0]), 1, 0)
		default:
			return 0, fmt.Errorf(msgShortNeedsArgument, rune(c[0]), w)
		}
	}
	return 0, nil
}

// set checks a value against the flag's type and records it.
func (fs *flagSet) set(spec *flagSpec, value string) error {
	var err error
	switch spec.kind {
	case boolFlag:
		_, err = strconv.ParseBool(value)
	case intFlag:
		bits := spec.bits
		if bits == 0 {
			bits = 64
		}
		_, err = strconv.ParseInt(value, 0, bits)
	case durationFlag:
		_, err = time.ParseDuration(value)
	}
	if err != nil {
		return fmt.Errorf(msgInvalidFlagArgument, value, flagDisplayName(spec), err)
	}
	fs.vals = append(fs.vals, FlagValue{Name: spec.name, Value: value})
	return nil
}

func flagDisplayName(spec *flagSpec) string {
	if spec.short != "" {
		return "-" + spec.short + ", --" + spec.name
	}
	return "--" + spec.name
}

// missingRequired returns cobra's error for required flags not given.
func (fs *flagSet) missingRequired() error {
	var missing []string
	for _, s := range fs.specs {
		if !s.required {
			continue
		}
		found := false
		for _, v := range fs.vals {
			if v.Name == s.name {
				found = true
				break
			}
		}
		if !found {
			missing = append(missing, s.name)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	return fmt.Errorf(msgRequiredFlags, strings.Join(missing, `", "`))
}
