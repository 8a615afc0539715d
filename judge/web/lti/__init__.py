"""LTI 1.3: the web judge as a tool inside an LMS (Canvas, Moodle, Brightspace, Blackboard,
Sakai). Its rows are judge.web.state.lti's (on the judge's SQLite store); keys.py keeps its
signing keys, tool.py adapts pylti1p3 to FastAPI, routes.py serves the launches, services.py
calls the LMS (roster, line items, scores) and passback.py queues the grades it sends."""
