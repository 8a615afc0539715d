function f( {
