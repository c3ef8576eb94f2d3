package api

// QoS classes.
const (
	QOSGuaranteed = "Guaranteed"
	QOSBurstable  = "Burstable"
	QOSBestEffort = "BestEffort"
)

// QOSClass is v1qos.GetPodQOS over init and app containers, counting only
// cpu and memory and only non-zero quantities:
//   - BestEffort when no container requests or limits anything;
//   - Guaranteed when every container limits both cpu and memory and the
//     summed requests equal the summed limits;
//   - Burstable otherwise.
//
// A container's missing request counts as its limit, as the API server's
// defaulting (requests from limits) makes it before Kubernetes computes the
// class.
func QOSClass(s *PodSpec) string {
	var requests, limits [2]int64
	var haveReq, haveLim [2]bool
	guaranteed := true
	for _, list := range [][]Container{s.InitContainers, s.Containers} {
		for _, c := range list {
			for i, r := range [2]string{ResourceCPU, ResourceMemory} {
				lim, hasLim := c.Resources.Limits[r]
				hasLim = hasLim && lim.Sign() > 0
				req, hasReq := c.Resources.Requests[r]
				hasReq = hasReq && req.Sign() > 0
				if !hasReq && hasLim {
					req, hasReq = lim, true
				}
				if hasReq {
					requests[i] += req.MilliValue()
					haveReq[i] = true
				}
				if hasLim {
					limits[i] += lim.MilliValue()
					haveLim[i] = true
				} else {
					guaranteed = false
				}
			}
		}
	}
	if !haveReq[0] && !haveReq[1] && !haveLim[0] && !haveLim[1] {
		return QOSBestEffort
	}
	if guaranteed && requests == limits && haveReq == haveLim {
		return QOSGuaranteed
	}
	return QOSBurstable
}
