#pragma once
// Gating and global-nearest-neighbour association of plots to tracks, linear in their number:
// gates go into a uniform spatial hash (cells sized from the median gate), each plot reads the
// one cell it falls in, gated pairs form clusters (connected components of the bipartite gate
// graph), and each cluster gets an exact minimum-cost assignment (Hungarian) when it has at most
// exact_cluster_max tracks and plots, a greedy one (cheapest pair first) above. Internal.
#include <array>
#include <cstdint>
#include <span>
#include <vector>

namespace sweepline::track {

struct GateTrack {
  double pos[2] = {0, 0};     // predicted position
  double cov[3] = {0, 0, 0};  // predicted position covariance (xx, xy, yy), without the plot's
  // A one-plot tentative has no velocity yet: a circle of this radius (max speed x time) instead
  // of the chi-square gate. 0 for a track with a filter.
  double circle_radius_m = 0.0;
  double max_radius_m = 1e9;  // cap on the chi-square gate's extent
  bool young = false;  // not confirmed yet: its gain from a plot is weighted (Associator::run)
};

struct GatePlot {
  double z[2] = {0, 0};
  double r[3] = {0, 0, 0};  // measurement covariance (xx, xy, yy)
};

struct AssociationResult {
  std::vector<int> track_plot;  // per track: the plot assigned, or -1
  // Per plot: within exclusion_chi2 of a track's prediction (a wider ellipse than the gate): a
  // plot there missed by a track's gate is more likely that track's than a new target.
  std::vector<uint8_t> plot_near;
  // Per plot, after the assignment: left unassigned, and it may still be a track's own echo, so
  // it must start no track: in the exclusion region of a track that got no plot (its own plot,
  // missed by its gate) or of a one-plot tentative (whose circle only bounds where its target
  // went), or within the noise gate of a filtered track's assigned plot (a split of that echo).
  // A plot clear of the plot a filtered track took is another target's, a neighbour in dense
  // traffic, which a whole-ellipse exclusion kept from ever starting a track
  // (docs/tracking-internals.md, "Gating and association").
  std::vector<uint8_t> plot_excluded;
  int greedy_clusters = 0;
  int clusters = 0;
};

class Associator {
 public:
  // gate_chi2: the chi-square gate on the innovation; exclusion_chi2 (>= gate_chi2): the wider
  // ellipse that marks plots near a track; exact_max: the cluster size cap above which
  // assignment is greedy. (ref_x, ref_y): the radar's position (any point gives the same
  // result; near the radar, where the plots' noise grows with the distance from it, the gate
  // boxes are smallest).
  void run(std::span<const GateTrack> tracks, std::span<const GatePlot> plots, double gate_chi2,
           double exclusion_chi2, int exact_max, AssociationResult& out, double ref_x = 0.0,
           double ref_y = 0.0, double young_gain_weight = 1.0);
  // young_gain_weight: a young track's gain from taking a plot (gate_chi2 - d2, against missing)
  // is multiplied by it, so that a confirmed track keeps a contested plot.

 private:
  struct Entry {
    int64_t cell;
    int track;
  };
  struct Edge {
    int track, plot;
    double cost, miss_cost;
  };
  // Tests one track-plot pair; adds an edge when it gates, marks the plot when it is near.
  void gate_pair(const GateTrack& g, int t, const GatePlot& z, int p, double gate_chi2,
                 double exclusion_chi2, AssociationResult& out);

  // Assigns the gated pairs (edges_) cluster by cluster.
  void assign(int nt, int np, int exact_max, AssociationResult& out);
  // Sets plot_excluded from the pairs within the exclusion region (near_) and the assignment.
  void exclude(std::span<const GatePlot> plots, double gate_chi2, AssociationResult& out);

  std::vector<std::array<double, 2>> band_max_, half_;  // per range band / track: x, y
  std::vector<double> scratch_;
  std::vector<uint32_t> bucket_start_, fill_;
  std::vector<Entry> entries_, sorted_;
  std::vector<Edge> edges_;
  std::vector<std::array<int, 2>> near_;  // (track, plot) pairs within the exclusion region
  std::vector<int> parent_, cluster_of_root_, cluster_start_, order_;
  std::vector<int> local_track_, local_plot_;
  std::vector<uint8_t> assigned_, tentative_;
  double young_gain_weight_ = 1.0;
  std::vector<double> cost_;
};

// Minimum-cost assignment of rows to columns (rows <= cols), cost row-major rows x cols; returns
// the column of each row. Exposed for its test.
std::vector<int> hungarian(const std::vector<double>& cost, int rows, int cols);

}  // namespace sweepline::track
