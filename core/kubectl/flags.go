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

// parse consumes words; errors are pflag's texts, wrapped as flag errors.
func (fs *flagSet) parse(words []string) error {
	for i := 0; i < len(words); i++ {
		w := words[i]
		switch {
		case w == "--":
			fs.args = append(fs.args, words[i+1:]...)
			return nil
		case strings.HasPrefix(w, "--"):
			n, err := fs.parseLong(w, words[i+1:])
			if err != nil {
				return &flagError{path: fs.path, msg: err.Error()}
			}
			i += n
		case strings.HasPrefix(w, "-") && len(w) > 1:
			n, err := fs.parseShort(w, words[i+1:])
			if err != nil {
				return &flagError{path: fs.path, msg: err.Error()}
			}
			i += n
		default:
			fs.args = append(fs.args, w)
		}
	}
	return nil
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
	return consumed, fs.set(spec, value)
}

// parseShort handles -n value, -nvalue, -n=value and clusters of boolean
// shorthands such as -Aw.
func (fs *flagSet) parseShort(w string, rest []string) (int, error) {
	shorts := w[1:]
	for len(shorts) > 0 {
		c := shorts[:1]
		spec := fs.lookupShort(c)
		if spec == nil {
			return 0, fmt.Errorf(msgUnknownShorthand, rune(c[0]), w)
		}
		after := shorts[1:]
		switch {
		case len(after) > 0 && after[0] == '=':
			return 0, fs.set(spec, after[1:])
		case spec.noOpt != "":
			if err := fs.set(spec, spec.noOpt); err != nil {
				return 0, err
			}
			shorts = after
			continue
		case len(after) > 0:
			return 0, fs.set(spec, after)
		case len(rest) > 0:
			return 1, fs.set(spec, rest[0])
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
