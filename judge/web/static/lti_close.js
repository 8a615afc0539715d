// Dynamic Registration's last step: the LMS that opened this page closes it (LTI-DR 1.0).
"use strict";
(window.opener || window.parent).postMessage({ subject: "org.imsglobal.lti.close" }, "*");
