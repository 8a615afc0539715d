"""LTI 1.3: the web judge as a tool inside an LMS (Canvas, Moodle, Brightspace, Blackboard,
Sakai). records.py keeps its state in the judge's SQLite store, keys.py its signing keys,
tool.py adapts pylti1p3 to FastAPI, routes.py serves the launches, services.py calls the LMS
(roster, line items, scores) and passback.py queues the grades it sends."""
