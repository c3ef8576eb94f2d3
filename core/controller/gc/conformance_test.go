package gc_test

import (
	"testing"

	"converge/core/controller"
	"converge/core/controller/gc"
	"converge/core/simtest/controllertest"
)

func TestConformance(t *testing.T) {
	t.Parallel()
	controllertest.Run(t, controllertest.Options{
		Name: gc.Component,
		New:  func() controller.Controller { return gc.New() },
	})
}
