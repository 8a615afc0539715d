// The deep-linking return: the teacher's choice goes back to the LMS at once (the button stays
// for a browser without scripts).
"use strict";
document.getElementById("lti-return").submit();
