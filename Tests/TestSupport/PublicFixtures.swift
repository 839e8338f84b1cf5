/// Small public data sets that tests use verbatim.
public enum PublicFixtures {
    /// The published calib.txt of the Middlebury 2014 "Adirondack" scene.
    public static let middleburyAdirondackCalib = """
        cam0=[4161.221 0 1445.577; 0 4161.221 984.686; 0 0 1]
        cam1=[4161.221 0 1654.636; 0 4161.221 984.686; 0 0 1]
        doffs=209.059
        baseline=176.252
        width=2880
        height=1988
        ndisp=280
        isint=0
        vmin=33
        vmax=218
        dyavg=0
        dymax=0

        """
}
