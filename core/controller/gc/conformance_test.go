package gc_test

import (
	"testing"

	"converge/core/controller"
	"converge/core/simtest/controllertest"
	"converge/core/controller/gc"
)

func TestConformance(t *testing.T) {
	t.Parallel()
	controllertest.Run(t, controllertest.Options{
		Name: gc.Component,
		New:  func() controller.Controller { return gc.New() },
	})
}
