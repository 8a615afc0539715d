;; The sum, from add.lisp, loaded (from the box) when this program starts.
(load "add.lisp")
(format t "~d~%" (add (read) (read)))
