(defun broken (x)
  (+ x 1)
