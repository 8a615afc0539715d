"""A course: the course file (spec), its deadline rules (policy), and the gradebook every
view of the counted scores reads (gradebook). Pure but for the loader."""
