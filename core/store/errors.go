package store

import (
	"errors"
	"fmt"
	"strings"

	"converge/core/api"
	"converge/core/validation/field"
)

// Reason classifies a StatusError, as metav1.StatusReason does.
type Reason string

// Reasons the store returns.
const (
	ReasonNotFound      Reason = "NotFound"
	ReasonAlreadyExists Reason = "AlreadyExists"
	ReasonConflict      Reason = "Conflict"
	ReasonInvalid       Reason = "Invalid"
	ReasonForbidden     Reason = "Forbidden"
	ReasonBadRequest    Reason = "BadRequest"
	// ReasonTooManyRequests is the 429 of the Eviction API when a
	// PodDisruptionBudget does not allow the eviction.
	ReasonTooManyRequests Reason = "TooManyRequests"
	// ReasonInternalError is a 500.
	ReasonInternalError Reason = "InternalError"
)

// StatusCause is one of an API error's details.causes: a machine-readable
// type and a message (metav1.StatusCause).
type StatusCause struct {
	Type    string
	Message string
}

// StatusError is an API error. Its Error() is the API server's message (what
// kubectl prints after "Error from server (Reason): "); kubectl rewrites
// Invalid errors into its own "The Deployment "web" is invalid: ..." form
// using Kind, Name and Errs.
type StatusError struct {
	Reason  Reason
	Kind    string // e.g. Deployment
	Name    string
	Errs    field.ErrorList // set for Invalid
	Message string
	// Causes are the error's details.causes, such as the
	// PodDisruptionBudget that refused an eviction.
	Causes []StatusCause
	// RetryAfterSeconds is details.retryAfterSeconds (a 429 may suggest one).
	RetryAfterSeconds int
}

func (e *StatusError) Error() string { return e.Message }

// Is lets errors.Is(err, ErrNotFound) and friends classify a StatusError.
func (e *StatusError) Is(target error) bool {
	t, ok := target.(*StatusError)
	return ok && t.Message == "" && t.Reason == e.Reason
}

// Sentinels for errors.Is.
var (
	ErrNotFound        = &StatusError{Reason: ReasonNotFound}
	ErrAlreadyExists   = &StatusError{Reason: ReasonAlreadyExists}
	ErrConflict        = &StatusError{Reason: ReasonConflict}
	ErrInvalid         = &StatusError{Reason: ReasonInvalid}
	ErrForbidden       = &StatusError{Reason: ReasonForbidden}
	ErrTooManyRequests = &StatusError{Reason: ReasonTooManyRequests}
)

// ReasonOf returns the reason of a StatusError, or "".
func ReasonOf(err error) Reason {
	var se *StatusError
	if errors.As(err, &se) {
		return se.Reason
	}
	return ""
}

// Resource returns the qualified resource name of a kind as API messages
// write it: deployments.apps, replicasets.apps, pods, nodes ... (a kind the
// store does not hold is lower-cased and given an s).
func Resource(kind string) string {
	if r := api.ResourceFor(kind); r != nil {
		return r.GroupResource()
	}
	return strings.ToLower(kind) + "s"
}

// GroupKind returns "Deployment.apps" or "Pod", as in invalid-object messages.
func GroupKind(kind string) string {
	if r := api.ResourceFor(kind); r != nil {
		return r.GroupKind()
	}
	return kind
}

func notFound(kind, name string) error {
	return &StatusError{Reason: ReasonNotFound, Kind: kind, Name: name,
		Message: fmt.Sprintf("%s %q not found", Resource(kind), name)}
}

func alreadyExists(kind, name string) error {
	return &StatusError{Reason: ReasonAlreadyExists, Kind: kind, Name: name,
		Message: fmt.Sprintf("%s %q already exists", Resource(kind), name)}
}

func conflict(kind, name string) error {
	return &StatusError{Reason: ReasonConflict, Kind: kind, Name: name,
		Message: fmt.Sprintf("Operation cannot be fulfilled on %s %q: the object has been modified; please apply your changes to the latest version and try again", Resource(kind), name)}
}

// NewInvalid returns the API server's 422 error for a list of field errors:
// `Deployment.apps "web" is invalid: <errs>`.
func NewInvalid(kind, name string, errs field.ErrorList) error {
	return &StatusError{Reason: ReasonInvalid, Kind: kind, Name: name, Errs: errs,
		Message: fmt.Sprintf("%s %q is invalid: %s", GroupKind(kind), name, errs.Error())}
}

// NewForbidden returns `pods "x" is forbidden: <why>`.
func NewForbidden(kind, name, why string) error {
	return &StatusError{Reason: ReasonForbidden, Kind: kind, Name: name,
		Message: fmt.Sprintf("%s %q is forbidden: %s", Resource(kind), name, why)}
}

// NewBadRequest returns a 400 error with the given message.
func NewBadRequest(msg string) error {
	return &StatusError{Reason: ReasonBadRequest, Message: msg}
}
