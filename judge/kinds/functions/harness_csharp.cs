// The judge's harness of a C# function (JudgeHarness.cs in the box): one call's arguments
// (JSON on stdin) in, the student's method of class Solution called by reflection with C#'s
// own types, and what came of it written after a mark as the last line of stdout
// (harness_python.py's protocol). A class problem's scenario makes the student's class and
// calls its methods in turn. The expected value is never here: the judge compares outside.
using System;
using System.Collections;
using System.Collections.Generic;
using System.Globalization;
using System.IO;
using System.Reflection;
using System.Text;

static class JudgeHarness
{
    static string text;
    static int at;
    static object made;  // the object of a class's scenario

    static void Skip() { while (char.IsWhiteSpace(text[at])) at++; }

    static object Value()
    {
        Skip();
        char c = text[at];
        if (c == 'n') { at += 4; return null; }
        if (c == 't') { at += 4; return true; }
        if (c == 'f') { at += 5; return false; }
        if (c == '"') return Text();
        if (c == '[')
        {
            var items = new List<object>();
            at++; Skip();
            if (text[at] == ']') { at++; return items; }
            while (true) { items.Add(Value()); Skip(); if (text[at++] == ']') return items; }
        }
        if (c == '{')
        {
            var fields = new Dictionary<string, object>();
            at++; Skip();
            if (text[at] == '}') { at++; return fields; }
            while (true)
            {
                Skip(); string key = Text(); Skip(); at++;
                fields[key] = Value(); Skip();
                if (text[at++] == '}') return fields;
            }
        }
        int start = at;
        while (at < text.Length && "+-.eE0123456789".IndexOf(text[at]) >= 0) at++;
        return new Number(text.Substring(start, at - start));
    }

    class Number { public readonly string Digits; public Number(string digits) { Digits = digits; } }

    static string Text()
    {
        var out_ = new StringBuilder();
        at++;
        while (text[at] != '"')
        {
            char c = text[at++];
            if (c != '\\') { out_.Append(c); continue; }
            char e = text[at++];
            switch (e)
            {
                case 'n': out_.Append('\n'); break;
                case 't': out_.Append('\t'); break;
                case 'r': out_.Append('\r'); break;
                case 'b': out_.Append('\b'); break;
                case 'f': out_.Append('\f'); break;
                case 'u': out_.Append((char)Convert.ToInt32(text.Substring(at, 4), 16)); at += 4; break;
                default: out_.Append(e); break;
            }
        }
        at++;
        return out_.ToString();
    }

    static object As(object value, Type type)
    {
        if (value == null) return null;
        Type inner = Nullable.GetUnderlyingType(type);
        if (inner != null) return As(value, inner);
        if (type == typeof(int)) return int.Parse(((Number)value).Digits, CultureInfo.InvariantCulture);
        if (type == typeof(long)) return long.Parse(((Number)value).Digits, CultureInfo.InvariantCulture);
        if (type == typeof(double)) return double.Parse(((Number)value).Digits, CultureInfo.InvariantCulture);
        if (type == typeof(bool) || type == typeof(string)) return value;
        if (type.IsArray)
        {
            var items = (List<object>)value;
            Type of = type.GetElementType();
            Array array = Array.CreateInstance(of, items.Count);
            for (int i = 0; i < items.Count; i++) array.SetValue(As(items[i], of), i);
            return array;
        }
        if (type.IsGenericType && type.GetGenericTypeDefinition() == typeof(Dictionary<,>))
        {
            var map = (IDictionary)Activator.CreateInstance(type);
            foreach (var field in (Dictionary<string, object>)value) map[field.Key] = As(field.Value, type.GetGenericArguments()[1]);
            return map;
        }
        if (type.IsGenericType && typeof(IList).IsAssignableFrom(type))
        {
            var list = (IList)Activator.CreateInstance(type);
            foreach (object item in (List<object>)value) list.Add(As(item, type.GetGenericArguments()[0]));
            return list;
        }
        throw new ArgumentException("no JSON type for a parameter of type " + type.Name);
    }

    static string Quote(string s)
    {
        var out_ = new StringBuilder("\"");
        foreach (char c in s)
        {
            if (c == '"') out_.Append("\\\"");
            else if (c == '\\') out_.Append("\\\\");
            else if (c < 32) out_.Append("\\u" + ((int)c).ToString("x4"));
            else out_.Append(c);
        }
        return out_.Append('"').ToString();
    }

    class Unserializable : Exception { public Unserializable(string what) : base(what) { } }

    static string Dump(object v, int depth)
    {
        if (depth > 1000) throw new Unserializable("a value nested too deep");
        if (v == null) return "null";
        if (v is bool) return (bool)v ? "true" : "false";
        if (v is int || v is long || v is short || v is byte) return Convert.ToString(v, CultureInfo.InvariantCulture);
        if (v is double || v is float)
        {
            double d = Convert.ToDouble(v);
            if (double.IsNaN(d) || double.IsInfinity(d)) throw new Unserializable("float (not finite)");
            string digits = d.ToString("R", CultureInfo.InvariantCulture);
            return digits.IndexOfAny(new[] { '.', 'E', 'e' }) >= 0 ? digits : digits + ".0";
        }
        if (v is string) return Quote((string)v);
        if (v is char) return Quote(v.ToString());
        if (v is IDictionary)
        {
            var parts = new List<string>();
            foreach (DictionaryEntry field in (IDictionary)v)
            {
                if (!(field.Key is string)) throw new Unserializable("a dictionary with keys of " + field.Key.GetType().Name);
                parts.Add(Quote((string)field.Key) + ":" + Dump(field.Value, depth + 1));
            }
            return "{" + string.Join(",", parts) + "}";
        }
        if (v is IEnumerable)
        {
            var parts = new List<string>();
            foreach (object item in (IEnumerable)v) parts.Add(Dump(item, depth + 1));
            return "[" + string.Join(",", parts) + "]";
        }
        throw new Unserializable(v.GetType().Name);
    }

    static string Raised(Exception error)
    {
        string message = error.Message ?? "";
        if (message.Length > 500) message = message.Substring(0, 500);
        return "{\"raised\":" + Quote(error.GetType().Name) + ",\"message\":" + Quote(message) + "}";
    }

    // What one call came to: its value, its exception, or a value of no JSON type.
    static string Outcome(MethodBase found, object self, List<object> given)
    {
        object result;
        try
        {
            ParameterInfo[] parameters = found.GetParameters();
            var values = new object[given.Count];
            for (int i = 0; i < values.Length; i++) values[i] = As(given[i], parameters[i].ParameterType);
            if (found is ConstructorInfo)
            {
                made = ((ConstructorInfo)found).Invoke(values);
                return "{\"returned\":null}";
            }
            var method = (MethodInfo)found;
            result = method.Invoke(method.IsStatic ? null : self, values);
            if (method.ReturnType == typeof(void)) return "{\"returned\":null}";
        }
        catch (TargetInvocationException error) { return Raised(error.InnerException ?? error); }
        catch (Exception error) { return Raised(error); }
        try { return "{\"returned\":" + Dump(result, 0) + "}"; }
        catch (Unserializable error) { return "{\"unserializable\":" + Quote(error.Message) + "}"; }
    }

    const BindingFlags Every = BindingFlags.Public | BindingFlags.NonPublic | BindingFlags.Instance | BindingFlags.Static;

    static MethodBase Named(Type owner, string name, int count)
    {
        if (name == null)
        {
            foreach (ConstructorInfo c in owner.GetConstructors(Every)) if (c.GetParameters().Length == count) return c;
            return null;
        }
        foreach (MethodInfo m in owner.GetMethods(Every | BindingFlags.DeclaredOnly))
            if (m.Name == name && m.GetParameters().Length == count) return m;
        return null;
    }

    static string Scenario(Type owner, List<object> steps)
    {
        var said = new List<string>();
        for (int i = 0; i < steps.Count; i++)
        {
            var step = (List<object>)steps[i];
            List<object> given = step.GetRange(1, step.Count - 1);
            MethodBase found = Named(owner, i == 0 ? null : (string)step[0], given.Count);
            said.Add(found == null
                ? "{\"raised\":\"MissingMethodException\",\"message\":" + Quote(step[0] + " with " + given.Count + " parameter(s)") + "}"
                : Outcome(found, made, given));
            if (made == null) break;  // the constructor raised: the scenario ends there
        }
        return "{\"steps\":[" + string.Join(",", said) + "]}";
    }

    static void Report(Stream out_, string result)
    {
        try { Console.Out.Flush(); } catch (Exception) { }
        byte[] line = Encoding.UTF8.GetBytes("\n\u001ejudge-result\u001e " + result + "\n");
        try { out_.Write(line, 0, line.Length); out_.Flush(); } catch (Exception) { }
        Environment.Exit(0);
    }

    static void Main()
    {
        Stream out_ = Console.OpenStandardOutput();  // taken before the student's code runs
        text = new StreamReader(Console.OpenStandardInput(), new UTF8Encoding(false)).ReadToEnd();
        at = 0;
        var call = (List<object>)Value();
        string[] asked = File.ReadAllText("function.txt").Split('\n');
        bool isClass = asked.Length > 1 && asked[1].Trim() == "class";
        string name = asked[0].Trim();
        Type owner = Type.GetType(isClass ? name : "Solution");
        if (owner == null) { Report(out_, "{\"missing\":" + Quote(isClass ? name : "Solution") + "}"); return; }
        if (isClass) { Report(out_, Scenario(owner, call)); return; }
        MethodBase found = Named(owner, name, call.Count);
        if (found == null) { Report(out_, "{\"missing\":" + Quote(name) + "}"); return; }
        object self = null;
        if (!found.IsStatic)
        {
            try { self = Activator.CreateInstance(owner, true); }
            catch (TargetInvocationException error) { Report(out_, Raised(error.InnerException ?? error)); return; }
            catch (Exception error) { Report(out_, Raised(error)); return; }
        }
        Report(out_, Outcome(found, self, call));
    }
}
