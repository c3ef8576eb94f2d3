package kubectl

import (
	"errors"
	"fmt"
	"strings"

	"converge/core/store"
)

// plainError is an error kubectl prints as "error: <msg>", or, when text is
// set, prints text exactly.
type plainError struct {
	msg  string
	text string
}

func (e *plainError) Error() string {
	if e.text != "" {
		return e.text
	}
	return withErrorPrefix(e.msg)
}

// flagError is a flag-parsing error, which kubectl's templater ends with a
// pointer to --help.
type flagError struct {
	path string // kubectl scale
	msg  string
}

func (e *flagError) Error() string {
	return withErrorPrefix(fmt.Sprintf(msgFlagErrorFormat, e.msg, e.path))
}

// usageError is cmdutil.UsageErrorf: the message and a pointer to -h.
type usageError struct {
	path string
	msg  string
}

func (e *usageError) Error() string {
	return withErrorPrefix(fmt.Sprintf(msgUsageErrorFormat, e.msg, e.path))
}

// aggregate is utilerrors.Aggregate: several errors reported together.
type aggregate []error

func (a aggregate) Error() string {
	msgs := make([]string, len(a))
	for i, e := range a {
		msgs[i] = rawMessage(e)
	}
	if len(msgs) == 1 {
		return msgs[0]
	}
	return "[" + strings.Join(msgs, ", ") + "]"
}

// errSilent ends a command with a failure and no message (cmdutil.ErrExit).
var errSilent = errors.New("exit")

func withErrorPrefix(msg string) string {
	if strings.HasPrefix(msg, "error: ") {
		return msg
	}
	return "error: " + msg
}

// newAggregate is what a ContinueOnError visitor returns for the errors it
// collected: nil for none, the error itself for one, else an aggregate.
func newAggregate(errs []error) error {
	var out aggregate
	for _, e := range errs {
		if e != nil {
			out = append(out, e)
		}
	}
	switch len(out) {
	case 0:
		return nil
	case 1:
		return out[0]
	}
	return out
}

// renderError is kubectl's cmdutil.CheckErr: how an error that ends a
// command is printed.
//
//   - Invalid API errors: `The Deployment "web" is invalid: spec.selector:
//     Required value`, or with several causes the prefix, a newline and one
//     "* <cause>" line each (duplicates dropped);
//   - other API errors: `Error from server (NotFound): deployments.apps "x"
//     not found`;
//   - an aggregate of one error prints that error; of several, each one's
//     standard message on its own line, without "error: ";
//   - anything else: "error: <msg>".
func renderError(err error) string {
	if a, ok := err.(aggregate); ok && len(a) == 1 {
		err = a[0]
	}
	if err == nil || err == errSilent {
		return ""
	}
	if pe, ok := err.(*plainError); ok && pe.text != "" {
		return pe.text
	}
	var se *store.StatusError
	if errors.As(err, &se) && se.Reason == store.ReasonInvalid {
		return renderInvalid(se)
	}
	if a, ok := err.(aggregate); ok {
		lines := make([]string, len(a))
		for i, e := range a {
			lines[i] = messageForError(e)
		}
		return strings.Join(lines, "\n")
	}
	if msg, ok := standardMessage(err); ok {
		return msg
	}
	return withErrorPrefix(err.Error())
}

// standardMessage is cmdutil.StandardErrorMessage for API errors.
func standardMessage(err error) (string, bool) {
	var se *store.StatusError
	if !errors.As(err, &se) {
		return "", false
	}
	if se.Reason == "" {
		return fmt.Sprintf(msgErrorFromServer, err.Error()), true
	}
	return fmt.Sprintf(msgErrorFromServerReason, se.Reason, err.Error()), true
}

// messageForError is one line of an aggregate: the standard message of an
// API error, else the error's own text.
func messageForError(err error) string {
	if msg, ok := standardMessage(err); ok {
		return msg
	}
	return rawMessage(err)
}

// rawMessage is an error's text as kubectl's fmt.Errorf would have made it,
// without the "error: " CheckErr adds to a lone error.
func rawMessage(err error) string {
	if pe, ok := err.(*plainError); ok {
		if pe.text != "" {
			return pe.text
		}
		return pe.msg
	}
	return err.Error()
}

// renderInvalid is the Invalid branch of CheckErr, built from the error's
// kind, name and causes.
func renderInvalid(se *store.StatusError) string {
	prefix := fmt.Sprintf(msgInvalidPrefix, se.Kind, se.Name)
	causes := se.Errs.Messages()
	switch len(causes) {
	case 0:
		return fmt.Sprintf(msgInvalidPrefix, se.Kind, se.Name)
	case 1:
		return prefix + ": " + causes[0]
	}
	var b strings.Builder
	b.WriteString(prefix + ": \n")
	for i, c := range causes {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString("* " + c)
	}
	return b.String()
}

// withSource is cmdutil.AddSourceToErr: `error when creating "web.yaml": ...`
// in front of an API error's message, keeping its reason and causes.
func withSource(verb, source string, err error) error {
	if source == "" {
		return err
	}
	var se *store.StatusError
	if errors.As(err, &se) {
		x := *se
		x.Message = fmt.Sprintf(msgErrorWhen, verb, source, se.Message)
		return &x
	}
	return fmt.Errorf(msgErrorWhen, verb, source, err.Error())
}

// isNotFound reports whether err is an API NotFound error.
func isNotFound(err error) bool { return store.ReasonOf(err) == store.ReasonNotFound }
