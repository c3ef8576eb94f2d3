package scheduler_test

import (
	"testing"

	"converge/core/controller"
	"converge/core/scheduler"
	"converge/core/simtest/controllertest"
)

func TestConformance(t *testing.T) {
	t.Parallel()
	controllertest.Run(t, controllertest.Options{
		Name: scheduler.Component,
		New:  func() controller.Controller { return scheduler.New() },
	})
}
