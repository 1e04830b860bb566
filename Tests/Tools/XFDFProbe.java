import java.io.File;
import java.util.List;
import org.apache.pdfbox.cos.COSArray;
import org.apache.pdfbox.cos.COSName;
import org.apache.pdfbox.pdmodel.common.PDRectangle;
import org.apache.pdfbox.pdmodel.fdf.FDFAnnotation;
import org.apache.pdfbox.pdmodel.fdf.FDFAnnotationInk;
import org.apache.pdfbox.pdmodel.fdf.FDFAnnotationText;
import org.apache.pdfbox.pdmodel.fdf.FDFDocument;

/**
 * Apache PDFBox reading an XFDF file, for Redline's tests: another implementation than Redline's own parser says
 * which annotations the file holds. Prints one JSON object per annotation, one per line: name, subtype, page,
 * rect, title, contents, rich text, intent, line endings, a line's ends, corners, fill, state, state model, ink strokes and quad points, as
 * PDFBox's FDF model has them.
 *
 * Run with the JDK's source launcher: java -cp pdfbox2.jar:fontbox2.jar:commons-logging.jar XFDFProbe.java FILE
 */
public class XFDFProbe {
    public static void main(String[] arguments) throws Exception {
        try (FDFDocument document = FDFDocument.loadXFDF(new File(arguments[0]))) {
            List<FDFAnnotation> annotations = document.getCatalog().getFDF().getAnnotations();
            if (annotations == null) return;
            for (FDFAnnotation annotation : annotations) {
                StringBuilder line = new StringBuilder("{");
                field(line, "name", annotation.getName());
                field(line, "subtype", annotation.getCOSObject().getNameAsString(COSName.SUBTYPE));
                line.append("\"page\":").append(annotation.getPage()).append(',');
                PDRectangle rect = annotation.getRectangle();
                line.append("\"rect\":").append(rect == null ? "null" : numbers(new float[] {
                    rect.getLowerLeftX(), rect.getLowerLeftY(), rect.getUpperRightX(), rect.getUpperRightY() })).append(',');
                field(line, "title", annotation.getTitle());
                field(line, "contents", annotation.getContents());
                field(line, "richText", annotation.getRichContents());
                field(line, "intent", annotation.getCOSObject().getNameAsString(COSName.IT));
                COSArray endings = annotation.getCOSObject().getCOSArray(COSName.LE);
                line.append("\"lineEndings\":[");
                for (int i = 0; endings != null && i < endings.size(); i++) {
                    if (i > 0) line.append(',');
                    line.append('"').append(endings.getName(i)).append('"');
                }
                line.append("],");
                if (annotation instanceof FDFAnnotationText) {
                    FDFAnnotationText text = (FDFAnnotationText) annotation;
                    field(line, "state", text.getState());
                    field(line, "stateModel", text.getStateModel());
                }
                if (annotation instanceof FDFAnnotationInk) {
                    line.append("\"ink\":[");
                    List<float[]> strokes = ((FDFAnnotationInk) annotation).getInkList();
                    for (int i = 0; strokes != null && i < strokes.size(); i++) {
                        if (i > 0) line.append(',');
                        line.append(numbers(strokes.get(i)));
                    }
                    line.append("],");
                }
                // A line's ends, a polygon's or polyline's corners, a fill: as the PDF's /L, /Vertices and /IC.
                for (String[] key : new String[][] { { "line", "L" }, { "vertices", "Vertices" }, { "interior", "IC" } }) {
                    COSArray values = annotation.getCOSObject().getCOSArray(COSName.getPDFName(key[1]));
                    if (values != null) line.append('"').append(key[0]).append("\":").append(numbers(values.toFloatArray())).append(',');
                }
                float[] quads = annotation.getCOSObject().getCOSArray(COSName.QUADPOINTS) == null ? null
                    : annotation.getCOSObject().getCOSArray(COSName.QUADPOINTS).toFloatArray();
                line.append("\"quads\":").append(quads == null ? "null" : numbers(quads));
                System.out.println(line.append('}'));
            }
        }
    }

    static void field(StringBuilder line, String key, String value) {
        line.append('"').append(key).append("\":");
        if (value == null) {
            line.append("null");
        } else {
            line.append('"');
            for (char c : value.toCharArray()) {
                if (c == '"' || c == '\\') line.append('\\').append(c);
                else if (c < 0x20) line.append(String.format("\\u%04x", (int) c));
                else line.append(c);
            }
            line.append('"');
        }
        line.append(',');
    }

    static String numbers(float[] values) {
        StringBuilder out = new StringBuilder("[");
        for (int i = 0; i < values.length; i++) {
            if (i > 0) out.append(',');
            out.append(values[i]);
        }
        return out.append(']').toString();
    }
}
