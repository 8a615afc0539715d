(defun add (a b) (+ a b))
